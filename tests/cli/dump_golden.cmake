# Golden test for culd-dump: dumps a few cubins and compares with the
# committed text under tests/golden/dump/. To refresh after an intended
# change, run with -DUPDATE=ON (and review the diff).
#
# Inputs: -DSOURCE_DIR=<repo> -DBINARY_DIR=<build>. culd-dump and the plugins
# are found in the build tree.
cmake_minimum_required(VERSION 3.25) # IN_LIST and friends in script mode
include(${SOURCE_DIR}/tests/cmake/CompareGolden.cmake)
set(dump "${BINARY_DIR}/tools/culd-dump/culd-dump")
if(NOT EXISTS "${dump}")
  message(FATAL_ERROR "culd-dump not built: ${dump}")
endif()

set(fixtures "${SOURCE_DIR}/tests/fixtures")
set(golden "${SOURCE_DIR}/tests/golden/dump")
# <golden name> <input, relative to SOURCE_DIR> <plugin naming its relocations>
set(cases
  sm80-printf-linked         tests/fixtures/07-printf/sm_80/nvlink.cubin           sm70
  sm90-funcptr-relocatable   tests/fixtures/05-func-pointer/sm_90/main.cubin       sm90
  sm100-single-kernel-linked tests/fixtures/01-single-kernel/sm_100/nvlink.cubin   sm100-mercury
  sm70-legacy-cuda118        tests/golden/dump/inputs/legacy-sm70-cuda118.cubin    sm70)
string(REPLACE "," ";" PLUGINS "${PLUGINS}")

set(failed "")
list(LENGTH cases n)
math(EXPR last "${n} - 1")
foreach(i RANGE 0 ${last} 3)
  math(EXPR j "${i} + 1")
  math(EXPR k "${i} + 2")
  list(GET cases ${i} name)
  list(GET cases ${j} input)
  list(GET cases ${k} plugin)
  if(PLUGINS AND NOT plugin IN_LIST PLUGINS)
    message(STATUS "skipping ${name}: plugin ${plugin} is not built")
    continue()
  endif()
  if(NOT EXISTS "${SOURCE_DIR}/${input}")
    message(WARNING "skipping ${name}: ${input} is missing")
    continue()
  endif()
  # Run from SOURCE_DIR with a relative path so the "File:" line is stable.
  execute_process(
    COMMAND "${dump}" --plugin-dir "${BINARY_DIR}/plugins" "${input}"
    WORKING_DIRECTORY "${SOURCE_DIR}"
    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(SEND_ERROR "${name}: culd-dump exited ${rc}: ${err}")
    list(APPEND failed ${name})
    continue()
  endif()
  compare_golden("${out}" "${golden}/${name}.txt" "${BINARY_DIR}/dump-golden-${name}.txt" ok)
  if(NOT ok)
    list(APPEND failed ${name})
  endif()
endforeach()

# Corrupt input: one error line on stderr, exit 1, other files still dumped.
string(ASCII 127 del)
file(WRITE "${BINARY_DIR}/dump-golden-corrupt.cubin" "${del}ELF not really")
execute_process(
  COMMAND "${dump}" "${BINARY_DIR}/dump-golden-corrupt.cubin"
          "tests/golden/dump/inputs/legacy-sm70-cuda118.cubin" -h
  WORKING_DIRECTORY "${SOURCE_DIR}"
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 1 OR NOT err MATCHES "^culd-dump error : " OR NOT out MATCHES "sm_70")
  message(SEND_ERROR "corrupt input: rc=${rc} stderr='${err}'")
  list(APPEND failed corrupt)
endif()

if(failed)
  message(FATAL_ERROR "dump_golden failed: ${failed}")
endif()
