# Golden tests for the link map (--print-map, -M, -Map=FILE, --Map FILE),
# --why-live and --trace-symbol (docs/link-map.md) on committed fixtures.
# Each run's stdout is compared with tests/cli/expected/<name>.txt; to
# refresh after an intended change, run with -DUPDATE=ON and review the diff.
# The map is also checked for itself: every section's inputs cover it
# exactly, and -Map=FILE writes what --print-map prints.
cmake_minimum_required(VERSION 3.25)
include(${SOURCE_DIR}/tests/cmake/CompareGolden.cmake)
string(REPLACE "," ";" PLUGINS "${PLUGINS}")
if(PLUGINS AND NOT sm70 IN_LIST PLUGINS)
  message(STATUS "skipping: the sm70 plugin (sm_80) is not built")
  return()
endif()

set(expected_dir "${SOURCE_DIR}/tests/cli/expected")
set(chain tests/fixtures/03-call-chain-3files/sm_80)
set(dead tests/fixtures/04-dead-device-func/sm_80)
set(cross tests/fixtures/02-cross-file-call/sm_80)
set(archive tests/host-fixtures/06-archive-unref-kernel/sm_80)
set(failed "")

# Runs culd from `dir` (relative paths keep the output stable) and compares
# its stdout with the golden file `name`.
function(golden name dir)
  execute_process(COMMAND ${CULD} ${ARGN} -o ${BINARY_DIR}/cli-link-map-${name}.cubin
    WORKING_DIRECTORY "${dir}" OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(SEND_ERROR "${name}: culd exited ${rc}: ${err}")
    set(failed ${failed} ${name} PARENT_SCOPE)
    return()
  endif()
  set(out_${name} "${out}" PARENT_SCOPE)
  set(err_${name} "${err}" PARENT_SCOPE)
  compare_golden("${out}" "${expected_dir}/${name}.txt"
                 "${BINARY_DIR}/cli-link-map-${name}.txt" ok)
  if(NOT ok)
    set(failed ${failed} ${name} PARENT_SCOPE)
  endif()
endfunction()

# Every section line is followed by input lines ("<offset> <size> <align>
# file:(section)"): in order, without overlap, the last one ending at the
# section size (gaps are alignment padding).
function(check_coverage name text)
  string(REPLACE "\n" ";" lines "${text}")
  set(section "")
  set(bad "")
  foreach(line IN LISTS lines)
    if(line MATCHES "^ +([0-9]+) +([0-9a-f]+) +([0-9a-f]+) +[0-9]+ +[A-Z0-9_x]+ +([^ ]+)$")
      if(section AND NOT extent EQUAL size)
        list(APPEND bad "${section}")
      endif()
      set(section "${CMAKE_MATCH_4}")
      math(EXPR size "0x${CMAKE_MATCH_3}")
      set(extent 0)
    elseif(line MATCHES "^ +([0-9a-f]+) +([0-9a-f]+) +[0-9]* +[^ ]+:\\(")
      math(EXPR begin "0x${CMAKE_MATCH_1}")
      if(begin LESS extent)
        list(APPEND bad "${section}")
      endif()
      math(EXPR extent "0x${CMAKE_MATCH_1} + 0x${CMAKE_MATCH_2}")
    endif()
  endforeach()
  if(section AND NOT extent EQUAL size)
    list(APPEND bad "${section}")
  endif()
  if(NOT section OR bad)
    message(SEND_ERROR "${name}: inputs do not cover sections: '${bad}' (last: '${section}')")
  endif()
endfunction()

golden(map-call-chain "${SOURCE_DIR}/${chain}" -arch=sm_80 --print-map a.cubin b.cubin c.cubin)
check_coverage(map-call-chain "${out_map-call-chain}")
golden(map-archive "${SOURCE_DIR}/${archive}" -arch=sm_80 --print-map main.o libextra.a)
check_coverage(map-archive "${out_map-archive}")

# Device functions' constant banks copied into each kernel's (cmem[2]).
golden(map-function-banks "${SOURCE_DIR}/tests/fixtures/86-math-helper-banks/sm_80" -arch=sm_80
  --print-map a.cubin b.cubin)
check_coverage(map-function-banks "${out_map-function-banks}")

# Shared windows list their variables (the layout places variables, not
# sections) and the reserved region (sm_90).
if(NOT PLUGINS OR sm90 IN_LIST PLUGINS)
  set(shared tests/fixtures/14-static-shared/sm_90)
  golden(map-shared-sm90 "${SOURCE_DIR}/${shared}" -arch=sm_90 --print-map main.cubin sum.cubin)
  check_coverage(map-shared-sm90 "${out_map-shared-sm90}")
endif()

# -Map=FILE and --Map FILE write what --print-map prints.
foreach(spelling "-Map=${BINARY_DIR}/cli-link-map.map" "--Map;${BINARY_DIR}/cli-link-map.map")
  file(REMOVE "${BINARY_DIR}/cli-link-map.map")
  execute_process(COMMAND ${CULD} -arch=sm_80 ${spelling} a.cubin b.cubin c.cubin
    -o ${BINARY_DIR}/cli-link-map-file.cubin
    WORKING_DIRECTORY "${SOURCE_DIR}/${chain}" OUTPUT_VARIABLE out RESULT_VARIABLE rc)
  file(READ "${BINARY_DIR}/cli-link-map.map" map)
  if(NOT rc EQUAL 0 OR NOT out STREQUAL "" OR NOT map STREQUAL "${out_map-call-chain}")
    message(SEND_ERROR "'${spelling}': rc=${rc}, stdout '${out}', or the file differs")
    list(APPEND failed map-file)
  endif()
endforeach()

# A map file that cannot be written stops the link before it starts.
file(REMOVE ${BINARY_DIR}/cli-link-map-nomap.cubin)
execute_process(COMMAND ${CULD} -arch=sm_80 -Map=${BINARY_DIR}/no/such/dir/x.map a.cubin b.cubin
  c.cubin -o ${BINARY_DIR}/cli-link-map-nomap.cubin
  WORKING_DIRECTORY "${SOURCE_DIR}/${chain}" ERROR_VARIABLE err RESULT_VARIABLE rc)
if(rc EQUAL 0 OR NOT err MATCHES "culd error : cannot open map file" OR
   EXISTS ${BINARY_DIR}/cli-link-map-nomap.cubin)
  message(SEND_ERROR "unwritable map file: rc=${rc}, stderr '${err}'")
  list(APPEND failed map-unwritable)
endif()

# -M is lld's short spelling of --print-map.
execute_process(COMMAND ${CULD} -arch=sm_80 -M a.cubin b.cubin c.cubin
  -o ${BINARY_DIR}/cli-link-map-file.cubin
  WORKING_DIRECTORY "${SOURCE_DIR}/${chain}" OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT out STREQUAL "${out_map-call-chain}")
  message(SEND_ERROR "-M: rc=${rc}, or stdout differs from --print-map's")
  list(APPEND failed map-M)
endif()

# A chain through three files, a removed function, a variable; by mangled
# and by demangled name.
golden(why-live-call-chain "${SOURCE_DIR}/${chain}" -arch=sm_80 a.cubin b.cubin c.cubin
  --why-live=_Z8helper_bi --why-live "mid(int)")
golden(why-live-dead "${SOURCE_DIR}/${dead}" -arch=sm_80 lib.cubin main.cubin
  --why-live=_Z9unused_fni --why-live=used_fn\(int\) --why-live=no_such_symbol)
if(NOT err_why-live-dead MATCHES "culd warning : --why-live: no symbol named 'no_such_symbol'")
  message(SEND_ERROR "why-live-dead: no warning for an unknown symbol: ${err_why-live-dead}")
  list(APPEND failed why-live-unknown)
endif()
# Host-reference lists choose the kernels; archive members are named.
golden(why-live-archive "${SOURCE_DIR}/${archive}" -arch=sm_80 main.o libextra.a
  "--why-live=kern(int*)" --why-live=_Z13orphan_kernelPi --why-live=orphan_counter)

golden(trace-symbol "${SOURCE_DIR}/${cross}" -arch=sm_80 main.cubin lib.cubin
  -y _Z6clampiiii "--trace-symbol=scale(float, int)")
golden(trace-symbol-archive "${SOURCE_DIR}/${archive}" -arch=sm_80 main.o libextra.a
  --trace-symbol=_Z10used_twicei -y orphan_counter)

if(failed)
  message(FATAL_ERROR "link_map failed: ${failed}")
endif()
