# An unmodified CMake project with CUDA_SEPARABLE_COMPILATION (an executable
# using a static library, and a shared library with its own device link),
# configured with CMAKE_CUDA_COMPILER=<prefix>/bin/culd-nvcc: CMake's compiler
# identification works through it and culd does every device link.
# Run with cmake -P; inputs: SOURCE_DIR, BINARY_DIR, NVCC.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)

set(work ${BINARY_DIR}/nvcc-cmake-project)
file(REMOVE_RECURSE ${work})
file(MAKE_DIRECTORY ${work})
set(prefix ${work}/prefix)
install_culd(${prefix})

get_filename_component(cuda_home ${NVCC} DIRECTORY)
get_filename_component(cuda_home ${cuda_home} DIRECTORY)
set(env ${CMAKE_COMMAND} -E env --unset=CULD --unset=CULD_NVCC_REAL CUDA_HOME=${cuda_home}
  CULD_NVCC_CACHE=${work}/cache)
find_program(NINJA ninja)
set(generator)
if(NINJA)
  set(generator -G Ninja)
endif()
run_step("configure" ${env} ${CMAKE_COMMAND} ${generator}
  -S ${SOURCE_DIR}/tests/nvcc/cmake-project -B ${work}/build
  -DCMAKE_CUDA_COMPILER=${prefix}/bin/culd-nvcc -DCMAKE_CUDA_ARCHITECTURES=80)
string(FIND "${step_output}" "The CUDA compiler identification is NVIDIA" id)
if(id EQUAL -1)
  message(FATAL_ERROR "CMake did not identify culd-nvcc as NVIDIA's nvcc:\n${step_output}")
endif()

run_step("build" ${env} CULD_LOG=${work}/build.log ${CMAKE_COMMAND} --build ${work}/build)
# Two device links: the executable's and the shared library's.
expect_device_links(${work}/build.log 2)
expect_linked_by_culd(${work}/build/app)
expect_linked_by_culd(${work}/build/libscale.so)

# Without a GPU the program says so; with one it checks its results.
run_step("app" ${work}/build/app)
if(NOT step_output MATCHES "^(PASS|no GPU)")
  message(FATAL_ERROR "app: ${step_output}")
endif()
message("CMake project: configured with culd-nvcc, every device link by culd: ${step_output}")
