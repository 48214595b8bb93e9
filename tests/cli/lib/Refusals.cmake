# culd_expect_refusal(<out> <expected> [WORKING_DIRECTORY <dir>] ARGS <argument>...)
#
# Runs culd with the arguments and `-o <out>`, and fails the test unless
# culd exits non-zero, says <expected> on stderr and leaves no <out>: what
# every refusal promises (a clear error, no half-written output).
function(culd_expect_refusal out expected)
  cmake_parse_arguments(R "" "WORKING_DIRECTORY" "ARGS" ${ARGN})
  if(NOT R_WORKING_DIRECTORY)
    set(R_WORKING_DIRECTORY ${BINARY_DIR})
  endif()
  file(REMOVE ${out})
  execute_process(COMMAND ${CULD} ${R_ARGS} -o ${out}
    WORKING_DIRECTORY ${R_WORKING_DIRECTORY} RESULT_VARIABLE rc ERROR_VARIABLE se)
  string(FIND "${se}" "${expected}" at)
  if(rc EQUAL 0 OR at EQUAL -1 OR EXISTS ${out})
    message(FATAL_ERROR "expected a refusal with '${expected}', got exit ${rc}, stderr:\n${se}")
  endif()
endfunction()
