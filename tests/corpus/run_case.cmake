# One corpus test (cmake -P): run culd with the fixture's nvlink command
# line and check the result against what nvlink did.
#
#   -DCULD=<culd>  -DCULD_DIFF=<culd-diff>  -DFIXTURE_DIR=<tests/fixtures/case/arch>
#   -DOUT_DIR=<where culd writes>  -DEXPECT=ok|error  [-DKNOWN_GAP=ON]
#
# ok:    culd exits 0, and `culd-diff --code-order culd.cubin nvlink.cubin`
#        says IDENTICAL or EQUIVALENT (with the per-function sections made
#        as code is merged in nvlink's order).
# error: culd exits non-zero (not a crash) with nvlink's exit status
#        (nvlink.rc: 255 for reported errors such as undefined references,
#        1 for fatal ones) and leaves no output file.
# With -DCULD_REFUSES=<text> (case.conf's culd_refuses: nvlink links by
#        regenerating code, which culd must not do): culd exits 1 with an
#        error containing <text> and leaves no output file; nothing is
#        compared with nvlink's output.
# Both:  culd's stderr names every 'quoted' name of nvlink's diagnostics
#        (symbols, input files, options); the rest of nvlink's stderr (the
#        --dump-callgraph listing) and its stdout, when not empty, must be
#        the same in culd's, byte for byte.
# A known gap must fail one of these checks cleanly (case_verdict.cmake).
cmake_minimum_required(VERSION 3.25)

foreach(var CULD CULD_DIFF FIXTURE_DIR OUT_DIR EXPECT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_case.cmake: -D${var}=... is required")
  endif()
endforeach()

include(${CMAKE_CURRENT_LIST_DIR}/case_verdict.cmake)
set(problems "")
set(abnormal "")
macro(problem text)
  list(APPEND problems "${text}")
endmacro()

# nvlink's argv with argv0 and the output file replaced.
file(READ ${FIXTURE_DIR}/cmd cmdline)
string(STRIP "${cmdline}" cmdline)
separate_arguments(nvlink_args UNIX_COMMAND "${cmdline}")
list(POP_FRONT nvlink_args argv0)
if(NOT argv0 STREQUAL "nvlink")
  message(FATAL_ERROR "${FIXTURE_DIR}/cmd: expected argv0 'nvlink', got '${argv0}'")
endif()
set(out_file ${OUT_DIR}/culd.cubin)
set(args ${CULD})
set(replace_next FALSE)
foreach(arg IN LISTS nvlink_args)
  if(replace_next)
    list(APPEND args ${out_file})
    set(replace_next FALSE)
  elseif(arg STREQUAL "-o")
    list(APPEND args -o)
    set(replace_next TRUE)
  else()
    list(APPEND args ${arg})
  endif()
endforeach()

file(REMOVE_RECURSE ${OUT_DIR})
file(MAKE_DIRECTORY ${OUT_DIR})
list(JOIN args " " shown)
message(STATUS "cd ${FIXTURE_DIR} && ${shown}")
execute_process(COMMAND ${args}
  WORKING_DIRECTORY ${FIXTURE_DIR}
  RESULT_VARIABLE rc OUTPUT_VARIABLE culd_stdout ERROR_VARIABLE culd_stderr)
file(WRITE ${OUT_DIR}/culd.stdout "${culd_stdout}")
file(WRITE ${OUT_DIR}/culd.stderr "${culd_stderr}")
file(WRITE ${OUT_DIR}/culd.rc "${rc}\n")

culd_check_culd_exit("${rc}" "${culd_stderr}")
if(NOT rc MATCHES "^[0-9]+$")
  # (recorded as abnormal)
elseif(CULD_REFUSES)
  if(NOT rc EQUAL 1)
    problem("culd exited ${rc}; it must refuse this link (exit 1): ${CULD_REFUSES}")
  endif()
  string(FIND "${culd_stderr}" "${CULD_REFUSES}" at)
  if(at EQUAL -1)
    problem("culd's stderr does not say '${CULD_REFUSES}'")
  endif()
  if(EXISTS ${out_file})
    problem("culd left an output file after refusing: ${out_file}")
  endif()
elseif(EXPECT STREQUAL "error")
  if(rc EQUAL 0)
    problem("culd succeeded; nvlink failed")
  elseif(EXISTS ${FIXTURE_DIR}/nvlink.rc)
    file(STRINGS ${FIXTURE_DIR}/nvlink.rc nvlink_rc LIMIT_COUNT 1)
    if(NOT rc EQUAL nvlink_rc)
      problem("culd exited ${rc}; nvlink exited ${nvlink_rc}")
    endif()
  endif()
  if(EXISTS ${out_file})
    problem("culd left an output file after an error: ${out_file}")
  endif()
elseif(NOT rc EQUAL 0)
  problem("culd exited ${rc}; nvlink succeeded")
elseif(NOT EXISTS ${out_file})
  problem("culd exited 0 but wrote no ${out_file}")
else()
  execute_process(COMMAND ${CULD_DIFF} --code-order ${out_file} ${FIXTURE_DIR}/nvlink.cubin
    RESULT_VARIABLE diff_rc OUTPUT_VARIABLE diff_out ERROR_VARIABLE diff_err)
  culd_check_diff_exit("${diff_rc}" "${diff_out}${diff_err}")
  if(diff_rc STREQUAL "1")
    problem("culd-diff culd.cubin nvlink.cubin (exit ${diff_rc}):\n${diff_out}${diff_err}")
  else()
    string(REGEX MATCH "^[A-Z]+" verdict "${diff_out}")
    message(STATUS "culd-diff: ${verdict}")
  endif()
endif()

# nvlink's diagnostics: culd must name the same symbols and files. The
# wording may differ, so only the 'quoted' names are checked (a name has no
# blank, which skips the apostrophe of "doesn't").
file(READ ${FIXTURE_DIR}/nvlink.stderr nvlink_stderr)
set(diagnostic "(error|warning|fatal|info) *:[^\n]*")
string(REGEX MATCHALL "\nnvlink ${diagnostic}" nvlink_diags "\n${nvlink_stderr}")
string(REGEX MATCHALL "'[^'\n ]+'" quoted "${nvlink_diags}")
list(REMOVE_DUPLICATES quoted)
foreach(q IN LISTS quoted)
  string(REGEX REPLACE "^'(.*)'$" "\\1" name "${q}")
  string(FIND "${culd_stderr}" "${name}" at)
  if(at EQUAL -1)
    problem("culd's stderr does not mention '${name}'; nvlink said:${nvlink_diags}")
  endif()
endforeach()

# What else nvlink wrote to stderr (--dump-callgraph goes there in 13.0)
# must come out of culd the same, byte for byte.
string(REGEX REPLACE "\nnvlink ${diagnostic}" "" nvlink_rest "\n${nvlink_stderr}")
string(REGEX REPLACE "\nculd ${diagnostic}" "" culd_rest "\n${culd_stderr}")
if(NOT nvlink_rest STREQUAL "\n" AND NOT nvlink_rest STREQUAL "" AND
   NOT culd_rest STREQUAL nvlink_rest)
  problem("stderr (without diagnostics) differs from nvlink.stderr")
endif()

if(EXISTS ${FIXTURE_DIR}/nvlink.stdout)
  file(READ ${FIXTURE_DIR}/nvlink.stdout nvlink_stdout)
  if(NOT nvlink_stdout STREQUAL "" AND NOT culd_stdout STREQUAL nvlink_stdout)
    problem("stdout differs from nvlink.stdout (culd's is in ${OUT_DIR}/culd.stdout)")
  endif()
endif()

culd_case_verdict("${FIXTURE_DIR}" "${culd_stderr}")
