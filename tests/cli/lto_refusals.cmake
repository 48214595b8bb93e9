# What culd's link-time optimisation refuses, with a clear message, a
# non-zero exit and no output: LTO IR mixed with non-LTO inputs (partial LTO,
# which nvlink does), options an LTO link cannot honour. And -dlto without
# LTO IR: nvlink's warning, then an ordinary link. None of it needs
# libnvJitLink or ptxas: the checks come before either is loaded.
set(work ${BINARY_DIR}/cli-lto-refusals)
set(fixture ${SOURCE_DIR}/tests/lto/fixtures/sm_80)
file(REMOVE_RECURSE ${work})
file(MAKE_DIRECTORY ${work})

function(run_culd name)
  set(out ${work}/${name}.cubin)
  execute_process(COMMAND ${CULD} ${ARGN} -o ${out} WORKING_DIRECTORY ${fixture}
    RESULT_VARIABLE rc OUTPUT_VARIABLE so ERROR_VARIABLE se)
  set(rc ${rc} PARENT_SCOPE)
  set(stderr "${se}" PARENT_SCOPE)
  set(wrote FALSE PARENT_SCOPE)
  if(EXISTS ${out})
    set(wrote TRUE PARENT_SCOPE)
  endif()
endfunction()

function(expect_refusal name expected)
  run_culd(${name} ${ARGN})
  string(FIND "${stderr}" "${expected}" at)
  if(rc EQUAL 0 OR at EQUAL -1 OR wrote)
    message(FATAL_ERROR "${name}: expected a refusal with '${expected}', got exit ${rc}, "
      "output written: ${wrote}, stderr:\n${stderr}")
  endif()
  set(stderr "${stderr}" PARENT_SCOPE)
endfunction()

set(partial "partial link-time optimisation (LTO IR mixed with non-LTO inputs) is not supported yet")
expect_refusal(partial-object "culd error : 'c-nonlto.o' has no LTO IR for sm_80 but 'a.o' has: ${partial}"
  -arch=sm_80 -dlto a.o b.o c-nonlto.o)
expect_refusal(partial-order "culd error : 'c-nonlto.o' has no LTO IR for sm_80 but 'a.o' has: ${partial}"
  -arch=sm_80 -lto c-nonlto.o a.o b.o)
# nvlink's info for every non-LTO input comes first.
string(FIND "${stderr}" "culd info : requested LTO but 'c-nonlto.o' not built for LTO so doing partial LTO" at)
if(at EQUAL -1)
  message(FATAL_ERROR "partial-order: no info naming c-nonlto.o:\n${stderr}")
endif()
expect_refusal(lto-debug "culd error : option '-g' is not supported with link-time optimisation (-lto) yet"
  -arch=sm_80 -dlto -g a.o b.o c.o)
expect_refusal(lto-map "culd error : option '-Map/--print-map' is not supported with link-time optimisation (-lto) yet"
  -arch=sm_80 -dlto a.o b.o c.o -Map=${work}/map.txt)
expect_refusal(lto-ofc "culd error : option '--Ofast-compile' is not supported yet"
  -arch=sm_80 -dlto -Ofc=max a.o b.o c.o)

# -dlto without LTO IR: warned, linked as without it.
run_culd(no-lto-ir -arch=sm_80 -dlto c-nonlto.o)
string(FIND "${stderr}" "culd warning : Ignoring -dlto option because no LTO objects found" at)
if(NOT rc EQUAL 0 OR at EQUAL -1 OR NOT wrote)
  message(FATAL_ERROR "no-lto-ir: expected a link with nvlink's warning, got exit ${rc}:\n${stderr}")
endif()
run_culd(no-lto-option -arch=sm_80 c-nonlto.o)
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${work}/no-lto-ir.cubin
  ${work}/no-lto-option.cubin RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "no-lto-ir: -dlto changed an ordinary link")
endif()
