# Installs culd, builds tests/library/consumer (a C program) against the
# installed culd package (find_package(culd) -> culd::culd), links a corpus
# case with it and checks that the bytes are the culd command's. Run with
# cmake -P; inputs: CULD, SOURCE_DIR, BINARY_DIR.
foreach(var CULD SOURCE_DIR BINARY_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "library_consumer: ${var} is not set")
  endif()
endforeach()

cmake_minimum_required(VERSION 3.25) # IN_LIST in script mode

# The corpus case is an sm_80 one.
string(REPLACE "," ";" PLUGINS "${PLUGINS}")
if(PLUGINS AND NOT "sm70" IN_LIST PLUGINS)
  message(STATUS "library_consumer: the sm70 plugin is not built, nothing to check")
  return()
endif()

set(work ${BINARY_DIR}/library-consumer)
set(prefix ${work}/prefix)
set(build ${work}/build)
file(REMOVE_RECURSE ${work})

function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "library_consumer: ${what} failed (${rc})\n${out}\n${err}")
  endif()
endfunction()

run_step("install" ${CMAKE_COMMAND} --install ${BINARY_DIR} --prefix ${prefix})
foreach(installed include/culd/culdLink.h lib/cmake/culd/culdConfig.cmake)
  if(NOT EXISTS ${prefix}/${installed})
    message(FATAL_ERROR "library_consumer: the install did not provide ${installed}")
  endif()
endforeach()

find_program(NINJA ninja)
set(generator)
if(NINJA)
  set(generator -G Ninja)
endif()
# A sanitized libculd leaves the sanitizer runtime to the program: build it
# with the same compiler and sanitizers (their C++ runtime too: the library
# is C++).
set(toolchain)
if(C_COMPILER)
  list(APPEND toolchain -DCMAKE_C_COMPILER=${C_COMPILER})
endif()
if(SANITIZE)
  list(APPEND toolchain
    "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined -fsanitize-link-c++-runtime -lstdc++")
endif()
run_step("configure consumer" ${CMAKE_COMMAND} ${generator} ${toolchain}
  -S ${SOURCE_DIR}/tests/library/consumer -B ${build} -DCMAKE_PREFIX_PATH=${prefix})
run_step("build consumer" ${CMAKE_COMMAND} --build ${build})

set(case ${SOURCE_DIR}/tests/fixtures/03-call-chain-3files/sm_80)
set(inputs ${case}/a.cubin ${case}/b.cubin ${case}/c.cubin)
run_step("link with libculd" ${build}/link-with-culd -arch=sm_80 ${work}/library.cubin ${inputs})
run_step("link with culd" ${CULD} -arch=sm_80 ${inputs} -o ${work}/command.cubin)
file(SHA256 ${work}/library.cubin library_hash)
file(SHA256 ${work}/command.cubin command_hash)
if(NOT library_hash STREQUAL command_hash)
  message(FATAL_ERROR "library_consumer: libculd's cubin differs from the culd command's")
endif()
