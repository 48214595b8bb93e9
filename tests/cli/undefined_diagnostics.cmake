# Golden test of culd's undefined-reference diagnostics (docs/diagnostics.md):
# nvlink's line first and unchanged, culd's details appended to the same
# line; --diagnostics-format=json writes the same as one object per line.
set(fixtures ${SOURCE_DIR}/tests/fixtures)
set(host_fixtures ${SOURCE_DIR}/tests/host-fixtures)
set(out ${BINARY_DIR}/cli-undefined-diagnostics.cubin)
set(problems "")

# Runs culd in `dir` with `args`; expects exit 255 and exactly `expected`
# (lines joined by newlines) on stderr.
function(expect_lines dir expected)
  execute_process(COMMAND ${CULD} ${ARGN} -o ${out} WORKING_DIRECTORY ${dir}
    RESULT_VARIABLE rc OUTPUT_VARIABLE so ERROR_VARIABLE se)
  set(want "${expected}")
  if(NOT rc EQUAL 255 OR NOT se STREQUAL "${want}\n")
    set(problems "${problems}\nculd ${ARGN} (in ${dir}) exited ${rc}, stderr:\n${se}expected:\n${want}\n"
      PARENT_SCOPE)
  endif()
endfunction()

# A kernel calls two functions no input defines (corpus 39's main.cubin alone).
expect_lines(${fixtures}/39-err-undef-func/sm_80
  "culd error : Undefined reference to '_Z7missingi' in 'main.cubin' [demangled: missing(int); live through: kernel k(int *) → missing(int)]\nculd error : Undefined reference to '_Z7presenti' in 'main.cubin' [demangled: present(int); live through: kernel k(int *) → present(int)]"
  -arch=sm_80 main.cubin)

# Dynamic parallelism without -lcudadevrt (host corpus 14): the hint.
expect_lines(${host_fixtures}/14-err-cdp-without-cudadevrt/sm_80
  "culd error : Undefined reference to '__cudaCDP2GetParameterBufferV2' in 'parent.o' [live through: kernel parent(int *, int) → __cudaCDP2GetParameterBufferV2; hint: defined by the device runtime library: link with -lcudadevrt]\nculd error : Undefined reference to '__cudaCDP2LaunchDeviceV2' in 'parent.o' [live through: kernel parent(int *, int) → __cudaCDP2LaunchDeviceV2; hint: defined by the device runtime library: link with -lcudadevrt]"
  -arch=sm_80 child.o main.o parent.o)

# An archive member, named as nvlink names it; a two-call chain.
expect_lines(${SOURCE_DIR}/tests/inputs
  "culd error : Undefined reference to '_Z7missingi' in 'libundef-sm80.a:undef.o' [demangled: missing(int); live through: kernel k(int *) → helper(int) → missing(int)]"
  -arch=sm_80 libundef-sm80.a)

# JSON: one object per line, every field present.
function(json_lines dir var)
  execute_process(COMMAND ${CULD} --diagnostics-format=json ${ARGN} -o ${out}
    WORKING_DIRECTORY ${dir} RESULT_VARIABLE rc OUTPUT_VARIABLE so ERROR_VARIABLE se)
  if(NOT rc EQUAL 255)
    set(problems "${problems}\njson: culd ${ARGN} exited ${rc}: ${se}" PARENT_SCOPE)
  endif()
  string(STRIP "${se}" se)
  string(REPLACE ";" "\\;" se "${se}")
  string(REPLACE "\n" ";" lines "${se}")
  set(${var} "${lines}" PARENT_SCOPE)
endfunction()

function(expect_field json field want)
  string(JSON got ERROR_VARIABLE err GET "${json}" ${field})
  if(err OR NOT got STREQUAL "${want}")
    set(problems "${problems}\njson field ${field}: got '${got}' ${err}, want '${want}' in ${json}"
      PARENT_SCOPE)
  endif()
endfunction()

json_lines(${SOURCE_DIR}/tests/inputs archive -arch=sm_80 libundef-sm80.a)
list(LENGTH archive n)
if(NOT n EQUAL 1)
  list(APPEND problems "json: expected 1 line for the archive, got ${n}: ${archive}")
else()
  list(GET archive 0 j)
  expect_field("${j}" severity "error")
  expect_field("${j}" message "Undefined reference to '_Z7missingi' in 'libundef-sm80.a:undef.o'")
  expect_field("${j}" symbol "missing(int)")
  expect_field("${j}" mangled "_Z7missingi")
  expect_field("${j}" file "libundef-sm80.a")
  expect_field("${j}" member "undef.o")
  expect_field("${j}" hint "")
  string(JSON chain_length LENGTH "${j}" chain)
  expect_field("${j}" "chain;0" "kernel k(int *)")
  expect_field("${j}" "chain;1" "helper(int)")
  if(NOT chain_length EQUAL 2)
    list(APPEND problems "json: chain of ${chain_length} steps, want 2: ${j}")
  endif()
endif()

json_lines(${host_fixtures}/14-err-cdp-without-cudadevrt/sm_80 cdp
  -arch=sm_80 child.o main.o parent.o)
list(LENGTH cdp n)
if(NOT n EQUAL 2)
  list(APPEND problems "json: expected 2 lines without -lcudadevrt, got ${n}: ${cdp}")
else()
  list(GET cdp 1 j)
  expect_field("${j}" mangled "__cudaCDP2LaunchDeviceV2")
  expect_field("${j}" file "parent.o")
  expect_field("${j}" member "")
  expect_field("${j}" "chain;0" "kernel parent(int *, int)")
  expect_field("${j}" hint "defined by the device runtime library: link with -lcudadevrt")
endif()

# Other diagnostics take the JSON shape too (only severity and message set).
execute_process(COMMAND ${CULD} --diagnostics-format=json -arch=sm_80 no-such.cubin -o ${out}
  RESULT_VARIABLE rc ERROR_VARIABLE se)
string(STRIP "${se}" se)
string(JSON severity ERROR_VARIABLE err GET "${se}" severity)
if(rc EQUAL 0 OR err OR NOT severity STREQUAL "error")
  list(APPEND problems "json: a missing input gave exit ${rc} and: ${se}")
endif()

execute_process(COMMAND ${CULD} --diagnostics-format=xml -arch=sm_80 x.cubin -o ${out}
  RESULT_VARIABLE rc ERROR_VARIABLE se)
if(NOT rc EQUAL 1 OR NOT se MATCHES "Value 'xml' is not defined for option 'diagnostics-format'")
  list(APPEND problems "--diagnostics-format=xml: exit ${rc}: ${se}")
endif()

if(EXISTS ${out})
  list(APPEND problems "culd left ${out} after an error")
endif()
if(problems)
  message(FATAL_ERROR "${problems}")
endif()
