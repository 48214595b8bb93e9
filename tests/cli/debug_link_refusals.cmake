# A debug link (-g) of sm_100+ code that takes code compiled without -G is
# refused, with a non-zero exit and no output: nvlink regenerates such code
# (it inserts instructions), also when other units were compiled with -G
# (libcudadevrt's memset_3d_device in a -G program grew from 0x580 to 0x600
# bytes; culd wrote it unchanged, exit 0, before the refusal). The -G units
# alone link.
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/lib/Refusals.cmake)
set(fix ${SOURCE_DIR}/tests/fixtures)
set(debugUnit ${fix}/129-debug-register-ranges/sm_120/a.cubin)
set(releaseUnit ${fix}/01-single-kernel/sm_120/k.cubin)
set(out ${BINARY_DIR}/cli-debug-link-refusals.cubin)
culd_expect_refusal(${out}
  "culd cannot reproduce nvlink's code regeneration for sm_120: -g on code compiled without -G"
  ARGS -g -arch=sm_120 ${debugUnit} ${releaseUnit})
execute_process(COMMAND ${CULD} -g -arch=sm_120 ${debugUnit}
    ${fix}/129-debug-register-ranges/sm_120/b.cubin -o ${out}
  RESULT_VARIABLE rc ERROR_VARIABLE se)
if(NOT rc EQUAL 0 OR NOT EXISTS ${out})
  message(FATAL_ERROR "-G units alone: exit ${rc}, stderr:\n${se}")
endif()
