# A host object whose fatbin holds only PTX for the target: culd compiles it
# with ptxas (found on PATH, CUDA_HOME or /usr/local/cuda) and links; the
# result must be EQUIVALENT to nvlink's. Host-info DCE is off, as with nvlink.
find_program(PTXAS ptxas PATHS /usr/local/cuda/bin ENV CUDA_HOME PATH_SUFFIXES bin NO_CACHE)
if(NOT PTXAS)
  message(STATUS "no ptxas: skipped")
  return()
endif()
set(dir ${SOURCE_DIR}/tests/inputs/ptx-only)
set(out ${BINARY_DIR}/cli-ptx-only.cubin)
file(REMOVE ${out})
execute_process(COMMAND ${CULD} -arch=sm_90 --ptxas-path ${PTXAS} lib.o main.o -o ${out}
  WORKING_DIRECTORY ${dir} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "culd failed: ${err}")
endif()
execute_process(COMMAND ${BINARY_DIR}/tools/culd-diff/culd-diff ${out} ${dir}/nvlink.cubin
  RESULT_VARIABLE rc OUTPUT_VARIABLE diff)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "PTX-only link differs from nvlink's:\n${diff}")
endif()
