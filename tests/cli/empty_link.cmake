# A device link whose inputs hold no relocatable device code (a non-rdc host
# object) gives the same nearly empty cubin nvlink writes
# (tests/inputs/nordc-sm90.nvlink.cubin: nvlink -arch=sm_90 host-nordc.o).
set(out ${BINARY_DIR}/cli-empty-link.cubin)
file(REMOVE ${out})
execute_process(COMMAND ${CULD} -arch=sm_90 ${SOURCE_DIR}/tests/inputs/host-nordc.o -o ${out}
  RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "culd failed on a link without device code: ${err}")
endif()
execute_process(COMMAND ${BINARY_DIR}/tools/culd-diff/culd-diff ${out}
  ${SOURCE_DIR}/tests/inputs/nordc-sm90.nvlink.cubin RESULT_VARIABLE rc OUTPUT_VARIABLE diff)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "empty link differs from nvlink's:\n${diff}")
endif()
