# A link that fails after the call graph is built still prints it, as nvlink
# does: --dump-callgraph on corpus 96's register-limit error gives nvlink's
# stderr (tests/cli/expected/callgraph-failed-link.txt: nvlink 13.0 -arch=sm_80
# on the same inputs, "nvlink error   :" spelled "culd error :"): the dump,
# then per register raise the limit error, if any, and the "propagated" line.
set(in ${SOURCE_DIR}/tests/fixtures/96-err-regcount-limit/sm_80)
set(out ${BINARY_DIR}/cli-dump-callgraph-failed.cubin)
execute_process(COMMAND ${CULD} -arch=sm_80 --dump-callgraph
  ${in}/a-kernels.cubin ${in}/b-mid.cubin ${in}/c-heavy.cubin -o ${out}
  RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "the register-limit link succeeded:\n${err}")
endif()
file(READ ${SOURCE_DIR}/tests/cli/expected/callgraph-failed-link.txt want)
if(NOT err STREQUAL want)
  message(FATAL_ERROR "stderr differs from nvlink's.\nculd:\n${err}\nnvlink:\n${want}")
endif()
