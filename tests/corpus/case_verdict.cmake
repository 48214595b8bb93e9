# The end of one corpus test (cubin or host mode), shared by both
# run_case.cmake scripts: turns what the case found into pass or fail.
#
#   problems: how culd's result differs from nvlink's (a DIFFERENT verdict,
#             a missing diagnostic, another exit status, ...).
#   abnormal: what no test may accept: culd or culd-diff killed by a signal,
#             culd's "internal error", culd-diff's own error (exit 2).
#
# An ordinary case passes with no problems and nothing abnormal. A known gap
# (-DKNOWN_GAP=ON, from known-gaps.txt) passes only when the tools ran
# normally and the case failed the ordinary way: a crash is never a known
# gap, and a gap that now passes fails so that its line gets deleted.

# Records in `abnormal` (parent scope) when culd did not exit normally.
macro(culd_check_culd_exit rc stderr)
  if(NOT "${rc}" MATCHES "^[0-9]+$")
    list(APPEND abnormal "culd did not exit normally: ${rc}")
  elseif("${stderr}" MATCHES "internal error")
    list(APPEND abnormal "culd reported an internal error")
  endif()
endmacro()

# culd-diff exits 0 (IDENTICAL/EQUIVALENT), 1 (DIFFERENT) or 2 (its error).
macro(culd_check_diff_exit rc output)
  if(NOT "${rc}" MATCHES "^[01]$")
    list(APPEND abnormal "culd-diff failed (exit ${rc}): ${output}")
  endif()
endmacro()

function(culd_case_verdict where culd_stderr)
  if(KNOWN_GAP)
    if(abnormal)
      list(JOIN abnormal "\n  " text)
      message(FATAL_ERROR "${where}: known gap, but not a clean failure:\n  ${text}\n"
        "culd stderr:\n${culd_stderr}")
    elseif(NOT problems)
      message(FATAL_ERROR "${where}: known gap passes now: delete its line from known-gaps.txt")
    endif()
    list(JOIN problems "\n  " text)
    message(STATUS "known gap, failing as expected:\n  ${text}")
    return()
  endif()
  set(all ${abnormal} ${problems})
  if(all)
    list(JOIN all "\n  " text)
    message(FATAL_ERROR "${where}:\n  ${text}\nculd stderr:\n${culd_stderr}")
  endif()
endfunction()
