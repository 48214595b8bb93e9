# One LTO fixture (tests/lto/fixtures/<arch>, scripts/regen-lto-fixtures.sh)
# replayed with culd: nvcc's nvlink -dlto command, the .ltoir files and
# -emit-ptx must give nvlink's bytes, and a program calling the device
# runtime must be refused as partial LTO. Needs ptxas and libnvJitLink;
# without either it leaves ${OUT}/skipped (the test is then skipped).
# Inputs: CULD, CULD_DIFF, FIXTURE, OUT.
cmake_minimum_required(VERSION 3.25)

file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
find_program(PTXAS ptxas HINTS ENV CUDA_HOME ENV CUDA_PATH PATHS /usr/local/cuda
  PATH_SUFFIXES bin NO_CACHE)
if(PTXAS)
  get_filename_component(cuda ${PTXAS} DIRECTORY)
  get_filename_component(cuda ${cuda} DIRECTORY)
  find_library(NVJITLINK nvJitLink PATHS ${cuda}/lib64 ${cuda}/targets/x86_64-linux/lib
    NO_DEFAULT_PATH NO_CACHE)
  file(GLOB CUDA_LIB ${cuda}/targets/*/lib/libcudadevrt.a ${cuda}/lib64/libcudadevrt.a)
endif()
if(NOT PTXAS OR NOT NVJITLINK OR NOT CUDA_LIB)
  file(WRITE ${OUT}/skipped "")
  message("no ptxas, libnvJitLink or libcudadevrt: skipped")
  return()
endif()
list(GET CUDA_LIB 0 CUDA_LIB)
get_filename_component(CUDA_LIB ${CUDA_LIB} DIRECTORY)

# Runs culd in the fixture folder (inputs are named relative to it).
function(run_culd expect_rc)
  execute_process(COMMAND ${CULD} ${ARGN} WORKING_DIRECTORY ${FIXTURE}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL expect_rc)
    message(FATAL_ERROR "culd ${ARGN}: exit ${rc}, expected ${expect_rc}:\n${out}${err}")
  endif()
  set(culd_output "${out}${err}" PARENT_SCOPE)
endfunction()

# Byte-identical to nvlink's, or the culd-diff report.
function(expect_same ours theirs)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${ours} ${FIXTURE}/${theirs}
    RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    execute_process(COMMAND ${CULD_DIFF} ${ours} ${FIXTURE}/${theirs} OUTPUT_VARIABLE diff)
    message(FATAL_ERROR "${ours} is not ${theirs}:\n${diff}")
  endif()
endfunction()

# 1. nvcc's command line, nvvmpath the toolkit's own nvvm folder (culd
#    finds libnvJitLink in <cuda>/lib64 from it).
file(READ ${FIXTURE}/cmd cmd)
string(STRIP "${cmd}" cmd)
string(REPLACE "@CUDA_LIB@" "${CUDA_LIB}" cmd "${cmd}")
string(REPLACE "@NVVM@" "${cuda}/nvvm" cmd "${cmd}")
string(REPLACE "nvlink.reg.c" "${OUT}/culd.reg.c" cmd "${cmd}")
string(REPLACE "-o nvlink.cubin" "-o ${OUT}/culd.cubin" cmd "${cmd}")
separate_arguments(args UNIX_COMMAND "${cmd}")
list(REMOVE_AT args 0) # nvlink
run_culd(0 ${args} --ptxas-path ${PTXAS})
expect_same(${OUT}/culd.cubin nvlink.cubin)
expect_same(${OUT}/culd.reg.c nvlink.reg.c)

# 2. The arch of the fixture, from its command.
string(REGEX MATCH "--arch=(sm_[0-9a-z]+)" _ "${cmd}")
set(arch ${CMAKE_MATCH_1})

# 3. .ltoir files given directly; -emit-ptx.
run_culd(0 -arch=${arch} -dlto -nvvmpath=${cuda}/nvvm --ptxas-path ${PTXAS}
  a.ltoir b.ltoir c.ltoir -o ${OUT}/ltoir.cubin)
expect_same(${OUT}/ltoir.cubin nvlink-ltoir.cubin)
run_culd(0 -arch=${arch} -dlto -nvvmpath=${cuda}/nvvm a.o b.o c.o -emit-ptx -o ${OUT}/culd.ptx)
expect_same(${OUT}/culd.ptx nvlink.ptx)

# 4. -time: nvlink's two rows for the LTO steps. Without libcudadevrt, LTO
# IR from host objects is refused after both steps, as nvlink refuses it
# (exit 1, "expected libcudadevrt object"; .ltoir files and -emit-ptx above
# need none).
run_culd(1 -arch=${arch} -dlto -nvvmpath=${cuda}/nvvm --ptxas-path ${PTXAS} a.o b.o c.o
  -o ${OUT}/timed.cubin -time -)
if(NOT culd_output MATCHES "culd error : expected libcudadevrt object")
  message(FATAL_ERROR "no libcudadevrt: not refused:\n${culd_output}")
endif()
if(NOT culd_output MATCHES "lto.nvvm , cicc ,  , lto.ptx , ${arch} , nvlink , [0-9.]+ , ms\n"
   OR NOT culd_output MATCHES "lto.ptx , ptxas ,  , lto.cubin , ${arch} , nvlink , [0-9.]+ , ms\n")
  message(FATAL_ERROR "-time: no LTO rows:\n${culd_output}")
endif()

# 5. Device runtime calls: nvlink links libcudadevrt by a partial LTO.
run_culd(1 -arch=${arch} -dlto -nvvmpath=${cuda}/nvvm --ptxas-path ${PTXAS} dp.o
  -L${CUDA_LIB} -lcudadevrt -o ${OUT}/dp.cubin)
if(NOT culd_output MATCHES "calls '__cudaCDP2[A-Za-z0-9]+', which no LTO input defines.*partial link-time optimisation")
  message(FATAL_ERROR "device runtime call: not refused as partial LTO:\n${culd_output}")
endif()
if(EXISTS ${OUT}/dp.cubin)
  message(FATAL_ERROR "refused link left ${OUT}/dp.cubin")
endif()
message("${arch}: culd -dlto gives nvlink's cubin, registration file and PTX")
