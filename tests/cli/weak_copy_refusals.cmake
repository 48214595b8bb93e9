# Weak copies whose description nvlink rebuilds in ways culd does not model
# are refused with a message naming the function or section, a non-zero exit
# and no output, rather than linked into a cubin different from nvlink's
# (both cases below were linked so, exit 0, before the refusals):
#  * sm_100+: a weak copy replaced by a definition with other code, with a
#    call-frame row before the winner's return; nvlink rebuilds its
#    .debug_frame entry through the winner's Mercury code, which culd knows
#    only from that return on (corpus case 113-weak-replaced-frame-rows);
#  * sm_75-sm_89, -r: a weak copy with a constant bank that a later
#    definition replaced; nvlink keeps the bank's symbols at their input
#    values, past the bank that stays.
#  * sm_75-sm_89, -r: a weak kernel copy that lost; nvlink keeps its
#    parameter symbols in the winner's parameter bank.
# And, as nvlink fails it ("Internal error: reference to deleted section"):
#  * sm_75-sm_89, -r: a weak copy with a constant bank replaced by one
#    without and no bank of a losing copy after it.
# The final links of these inputs are ordinary corpus cases
# (116-weak-copies-lost-banks, 118-weak-lost-banks-relocatable,
# 121-weak-kernel-lost-banks).
cmake_minimum_required(VERSION 3.25) # IN_LIST in script mode
include(${CMAKE_CURRENT_LIST_DIR}/lib/Refusals.cmake)
string(REPLACE "," ";" PLUGINS "${PLUGINS}")
set(work ${BINARY_DIR}/cli-weak-copy-refusals)
file(REMOVE_RECURSE ${work})
file(MAKE_DIRECTORY ${work})

function(expect_refusal plugin case arch expected)
  if(PLUGINS AND NOT "${plugin}" IN_LIST PLUGINS)
    return()
  endif()
  culd_expect_refusal(${work}/${case}-${arch}.cubin "${expected}"
    WORKING_DIRECTORY ${SOURCE_DIR}/tests/fixtures/${case}/${arch}
    ARGS -arch=${arch} ${ARGN})
endfunction()

foreach(arch sm_100 sm_120)
  expect_refusal(sm100-mercury 113-weak-replaced-frame-rows ${arch}
    "culd error : weak.cubin: section '.debug_frame': the frame entry of 'pick(int)', a weak copy replaced by the definition in strong.cubin, has call-frame instructions other than the winner's; nvlink rebuilds it on ${arch} through the winner's Mercury code, which culd models only from the winner's return on (the copy has a row at 0xa0 of its Mercury code)"
    weak.cubin strong.cubin)
endforeach()
foreach(arch sm_75 sm_89)
  expect_refusal(sm70 118-weak-lost-banks-relocatable ${arch}
    "culd error : small.cubin: 'pick(int)' replaces a weak copy with a constant bank by one without: nvlink 13.0 fails such a relocatable link on ${arch} (Internal error: reference to deleted section)"
    -r banked.cubin small.cubin)
endforeach()
