# clang's OpenMP offload to nvptx64 with --cuda-path set to culd-nvcc's
# toolkit view: the driver runs clang-nvlink-wrapper
# --nvlink-path=<view>/bin/nvlink, which is culd.
# Run with cmake -P; inputs: SOURCE_DIR, BINARY_DIR, NVCC, CLANG.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)

set(work ${BINARY_DIR}/nvcc-clang-openmp)
file(REMOVE_RECURSE ${work})
file(MAKE_DIRECTORY ${work})
set(prefix ${work}/prefix)

# A clang that cannot offload to nvptx64 with this toolkit and nvlink (no
# OpenMP offload support, an unsupported CUDA) skips the test: the marker
# file tells the test command to report 77.
get_filename_component(cuda_home ${NVCC} DIRECTORY)
get_filename_component(cuda_home ${cuda_home} DIRECTORY)
set(clang_offload ${CLANG} -fopenmp -fopenmp-targets=nvptx64 -Xopenmp-target -march=sm_80
  -Wno-unknown-cuda-version ${SOURCE_DIR}/tests/nvcc/clang-openmp/target.c)
execute_process(COMMAND ${clang_offload} --cuda-path=${cuda_home} -o ${work}/omp-nvlink
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  file(WRITE ${work}/skipped "${out}${err}")
  message("clang cannot do OpenMP offload to nvptx64 here: skipped\n${out}${err}")
  return()
endif()

install_culd(${prefix})

set(env ${CMAKE_COMMAND} -E env --unset=CULD --unset=CULD_NVCC_REAL CUDA_HOME=${cuda_home}
  CULD_NVCC_CACHE=${work}/cache)
run_step("culd-nvcc --culd-toolkit" ${env} ${prefix}/bin/culd-nvcc --culd-toolkit)
string(STRIP "${step_output}" view)
if(NOT EXISTS ${view}/bin/nvlink OR NOT EXISTS ${view}/include)
  message(FATAL_ERROR "--culd-toolkit: '${view}' is not a toolkit root")
endif()

run_step("clang -fopenmp-targets=nvptx64" ${env} CULD_LOG=${work}/link.log
  ${clang_offload} --cuda-path=${view} -o ${work}/omp)
expect_device_links(${work}/link.log 1)
expect_linked_by_culd(${work}/omp)
message("clang OpenMP offload: device link by culd")
