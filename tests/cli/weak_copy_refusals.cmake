# Weak copies whose description nvlink rebuilds in ways culd does not model
# are refused with a message naming the function or section, a non-zero exit
# and no output, rather than linked into a cubin different from nvlink's
# (both cases below were linked so, exit 0, before the refusals):
#  * sm_100+: a weak copy replaced by a definition with other code; nvlink
#    rebuilds its .debug_frame entry through the winner's Mercury code
#    (corpus case 113-weak-replaced-frame-rows);
#  * sm_75-sm_89: a weak copy with a constant bank that lost to an earlier
#    copy; nvlink keeps the bank (corpus case 114-weak-lost-constant-bank).
# The sm_90 links of both cases are ordinary corpus cases.
cmake_minimum_required(VERSION 3.25) # IN_LIST in script mode
string(REPLACE "," ";" PLUGINS "${PLUGINS}")
set(work ${BINARY_DIR}/cli-weak-copy-refusals)
file(REMOVE_RECURSE ${work})
file(MAKE_DIRECTORY ${work})

function(expect_refusal plugin case arch expected)
  if(PLUGINS AND NOT "${plugin}" IN_LIST PLUGINS)
    return()
  endif()
  set(dir ${SOURCE_DIR}/tests/fixtures/${case}/${arch})
  set(out ${work}/${case}-${arch}.cubin)
  execute_process(COMMAND ${CULD} -arch=${arch} ${ARGN} -o ${out} WORKING_DIRECTORY ${dir}
    RESULT_VARIABLE rc ERROR_VARIABLE se)
  string(FIND "${se}" "${expected}" at)
  if(rc EQUAL 0 OR at EQUAL -1 OR EXISTS ${out})
    message(FATAL_ERROR "${case} ${arch}: expected a refusal with '${expected}', got exit ${rc}, "
      "stderr:\n${se}")
  endif()
endfunction()

foreach(arch sm_100 sm_120)
  expect_refusal(sm100-mercury 113-weak-replaced-frame-rows ${arch}
    "culd error : weak.cubin: section '.debug_frame': the frame entry of 'pick(int)', a weak copy replaced by the definition in strong.cubin, has call-frame instructions other than the winner's; nvlink rebuilds it on ${arch} from the Mercury code, which culd does not model"
    weak.cubin strong.cubin)
endforeach()
foreach(arch sm_75 sm_89)
  expect_refusal(sm70 114-weak-lost-constant-bank ${arch}
    "culd error : banked.cubin: section '.nv.constant2._Z4picki', the constant bank of a weak copy of 'pick(int)' that lost to an earlier definition, is kept by nvlink on ${arch} in a way culd does not model"
    small.cubin banked.cubin)
endforeach()
