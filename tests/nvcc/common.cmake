# Helpers of the culd-nvcc tests (run with cmake -P). Inputs: SOURCE_DIR,
# BINARY_DIR, NVCC (the toolkit's nvcc).
cmake_minimum_required(VERSION 3.25)

# Runs a command; any failure ends the test with its output. The output is
# left in step_output.
function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(step_output "${out}${err}" PARENT_SCOPE)
endfunction()

# Installs the build into `prefix` (further arguments go to cmake --install).
function(install_culd prefix)
  file(REMOVE_RECURSE ${prefix})
  run_step("cmake --install" ${CMAKE_COMMAND} --install ${BINARY_DIR} --prefix ${prefix} ${ARGN})
  foreach(f bin/culd bin/culd-nvcc bin/culd-dump bin/culd-diff)
    if(NOT EXISTS ${prefix}/${f})
      message(FATAL_ERROR "the install did not provide ${f}")
    endif()
  endforeach()
endfunction()

# The device-linked cubin embedded in `file` (an executable, shared library
# or -dlink object) must carry culd's own .note.nv.tkinfo record and none of
# nvlink's: the proof that culd, not nvlink, wrote it. The record's tool name
# is a NUL-terminated string of the note's pool (small fatbins like these are
# stored uncompressed), so it reads as a string of its own.
function(expect_linked_by_culd file)
  file(STRINGS ${file} tools REGEX "^(culd|nvlink)$")
  if(NOT "culd" IN_LIST tools)
    message(FATAL_ERROR "${file}: no cubin linked by culd in it")
  endif()
  if("nvlink" IN_LIST tools)
    message(FATAL_ERROR "${file}: a cubin in it was linked by nvlink")
  endif()
endfunction()

# The CULD_LOG file must name `count` device links.
function(expect_device_links log count)
  if(NOT EXISTS ${log})
    message(FATAL_ERROR "nvcc never ran culd (no ${log})")
  endif()
  file(STRINGS ${log} lines)
  list(LENGTH lines n)
  if(NOT n EQUAL count)
    message(FATAL_ERROR "expected ${count} device links by culd, got ${n}:\n${lines}")
  endif()
endfunction()
