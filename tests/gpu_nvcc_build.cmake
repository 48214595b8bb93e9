# Builds two host-corpus programs end to end with nvcc while culd does the
# device link (scripts/nvcc-with-culd.sh), runs them on the GPU and requires
# them to report PASS. The test command probes for nvcc and a GPU first and
# reports the test skipped (77) without them (see tests/CMakeLists.txt).
set(work ${BINARY_DIR}/gpu-nvcc-build)
file(REMOVE_RECURSE ${work})
file(MAKE_DIRECTORY ${work})
foreach(case 01-cross-file 02-dynamic-parallelism)
  set(src ${SOURCE_DIR}/tests/host-corpus/${case})
  file(GLOB sources ${src}/*.cu)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env CULD=${CULD} CULD_LOG=${work}/${case}.log
      ${SOURCE_DIR}/scripts/nvcc-with-culd.sh -arch=sm_90 -rdc=true ${sources} -o ${work}/${case}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${case}: build with culd failed: ${out}${err}")
  endif()
  if(NOT EXISTS ${work}/${case}.log)
    message(FATAL_ERROR "${case}: nvcc never called culd")
  endif()
  execute_process(COMMAND ${work}/${case} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(FIND "${out}" "PASS" pass)
  if(NOT rc EQUAL 0 OR pass EQUAL -1)
    message(FATAL_ERROR "${case}: program linked by culd failed on the GPU (${rc}): ${out}${err}")
  endif()
  message("${case}: built with culd as device linker, ran: ${out}")
endforeach()
