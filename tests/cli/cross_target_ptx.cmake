# sm_100f code linked for sm_103 (tests/inputs/cross-target/README.md):
#   * a kept function that cannot take the fast path, with PTX beside it:
#     culd warns once and links the PTX compiled by ptxas, EQUIVALENT to
#     nvlink's link of that PTX; the link runs twice (CrossTarget.cpp), and
#     what the first run printed (here a skipped empty input) is printed once;
#   * the same without PTX: refused, naming the function, no output;
#   * such a function dropped as dead: no PTX needed, EQUIVALENT to nvlink.
set(dir ${SOURCE_DIR}/tests/inputs/cross-target)
set(diff ${BINARY_DIR}/tools/culd-diff/culd-diff)
set(out ${BINARY_DIR}/cli-cross-target)
file(REMOVE_RECURSE ${out})
file(MAKE_DIRECTORY ${out})
file(WRITE ${out}/empty.o "")

function(expect_equivalent produced reference)
  execute_process(COMMAND ${diff} ${produced} ${reference} RESULT_VARIABLE rc OUTPUT_VARIABLE d)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${produced} differs from ${reference}:\n${d}")
  endif()
endfunction()

function(count_matches text needle result)
  string(REPLACE "${needle}" "\n@@\n" marked "${text}")
  string(REGEX MATCHALL "\n@@\n" hits "${marked}")
  list(LENGTH hits n)
  set(${result} ${n} PARENT_SCOPE)
endfunction()

# Dead: host-reference DCE drops axpy_double, nothing is recompiled.
execute_process(COMMAND ${CULD} -arch=sm_103 lib-unlaunched.o main-float.o -o ${out}/dead.cubin
  WORKING_DIRECTORY ${dir} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR err MATCHES "PTX")
  message(FATAL_ERROR "the unlaunched link: rc ${rc}: ${err}")
endif()
expect_equivalent(${out}/dead.cubin ${dir}/nvlink-unlaunched.cubin)

# No PTX: refused.
execute_process(COMMAND ${CULD} -arch=sm_103 lib-sass.o main-both.o -o ${out}/sass.cubin
  WORKING_DIRECTORY ${dir} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "'_Z11axpy_doublePdPKddi'.*cannot take the fast path to sm_103"
   OR EXISTS ${out}/sass.cubin)
  message(FATAL_ERROR "the SASS-only link was not refused as expected: rc ${rc}: ${err}")
endif()

# With PTX: needs ptxas.
find_program(PTXAS ptxas PATHS /usr/local/cuda/bin ENV CUDA_HOME PATH_SUFFIXES bin NO_CACHE)
if(NOT PTXAS)
  message(STATUS "no ptxas: the PTX fallback is not checked")
  return()
endif()
execute_process(COMMAND ${CULD} -arch=sm_103 --ptxas-path ${PTXAS} ${out}/empty.o lib.o main-both.o
  -o ${out}/ptx.cubin WORKING_DIRECTORY ${dir} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the link with PTX failed: ${err}")
endif()
count_matches("${err}" "compiles the input's compute_100f PTX for sm_103 instead" fallback)
count_matches("${err}" "empty.o" empty)
if(NOT fallback EQUAL 1 OR NOT empty EQUAL 1 OR NOT err MATCHES "'_Z11axpy_doublePdPKddi'")
  message(FATAL_ERROR "expected one fallback warning naming axpy_double and one line on "
                      "empty.o:\n${err}")
endif()
expect_equivalent(${out}/ptx.cubin ${dir}/nvlink-ptx.cubin)
