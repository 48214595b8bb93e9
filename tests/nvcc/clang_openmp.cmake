# clang's OpenMP offload to nvptx64 with --cuda-path set to culd-nvcc's
# toolkit view: the driver runs clang-nvlink-wrapper
# --nvlink-path=<view>/bin/nvlink, which is culd.
# Run with cmake -P; inputs: SOURCE_DIR, BINARY_DIR, NVCC, CLANG.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)

set(work ${BINARY_DIR}/nvcc-clang-openmp)
file(REMOVE_RECURSE ${work})
file(MAKE_DIRECTORY ${work})
set(prefix ${work}/prefix)
install_culd(${prefix})

get_filename_component(cuda_home ${NVCC} DIRECTORY)
get_filename_component(cuda_home ${cuda_home} DIRECTORY)
set(env ${CMAKE_COMMAND} -E env --unset=CULD --unset=CULD_NVCC_REAL CUDA_HOME=${cuda_home}
  CULD_NVCC_CACHE=${work}/cache)
run_step("culd-nvcc --culd-toolkit" ${env} ${prefix}/bin/culd-nvcc --culd-toolkit)
string(STRIP "${step_output}" view)
if(NOT EXISTS ${view}/bin/nvlink OR NOT EXISTS ${view}/include)
  message(FATAL_ERROR "--culd-toolkit: '${view}' is not a toolkit root")
endif()

run_step("clang -fopenmp-targets=nvptx64" ${env} CULD_LOG=${work}/link.log
  ${CLANG} -fopenmp -fopenmp-targets=nvptx64 -Xopenmp-target -march=sm_80 --cuda-path=${view}
  -Wno-unknown-cuda-version ${SOURCE_DIR}/tests/nvcc/clang-openmp/target.c -o ${work}/omp)
expect_device_links(${work}/link.log 1)
expect_linked_by_culd(${work}/omp)
message("clang OpenMP offload: device link by culd")
