# Relocatable links (-r) culd does not model yet are refused, naming what,
# with a non-zero exit and no output, rather than written different from
# nvlink's (each was, exit 0, before its refusal).
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/lib/Refusals.cmake)
set(fix ${SOURCE_DIR}/tests/fixtures)
set(out ${BINARY_DIR}/cli-relocatable-refusals.cubin)

# libcudadevrt's device runtime pulled into a -r link is linked as nvlink
# 13.0 links it (corpus 144); with a CUDA 11.8 input among the others (ELF
# ABI v7) what nvlink writes is not measured, so culd refuses.
set(dir ${SOURCE_DIR}/tests/host-fixtures/02-dynamic-parallelism/sm_75)
culd_expect_refusal(${out}
  "libcudadevrt.a:cuda_device_runtime.o: linking the device runtime library into a relocatable link (-r) is not supported for these inputs"
  WORKING_DIRECTORY ${dir}
  ARGS -arch=sm_75 -r child.o parent.o ${fix}/01-single-kernel/sm_75-cuda11/k.cubin
       -L${SOURCE_DIR}/tests/host-fixtures/lib -lcudadevrt)
# Without the CUDA 11.8 input the same link goes through.
execute_process(COMMAND ${CULD} -arch=sm_75 -r child.o parent.o
                        -L${SOURCE_DIR}/tests/host-fixtures/lib -lcudadevrt -o ${out}
  WORKING_DIRECTORY ${dir} RESULT_VARIABLE rc ERROR_VARIABLE se)
if(NOT rc EQUAL 0 OR NOT EXISTS ${out})
  message(FATAL_ERROR "-r with the device runtime: exit ${rc}, stderr:\n${se}")
endif()

# An undefined __constant__ variable: nvlink patches -1 into the code using
# it and drops the relocation, so the final link cannot resolve it (the code
# reads c[3][0xffff]). (An undefined extern __device__ is linked: corpus
# 135.)
culd_expect_refusal(${out}
  "against the undefined variable 'coeffs' in a relocatable link (-r): nvlink writes -1 there and drops the reference, which the final link then cannot resolve"
  ARGS -arch=sm_90 -r ${fix}/12-constant/sm_90/main.cubin)

# An undefined variable in CUDA 11.8 input (ELF ABI v7): what that
# toolkit's nvlink writes for it is not measured (CUDA 13 inputs are linked
# with the value -1, corpus 135).
culd_expect_refusal(${out}
  "undefined variable 'op_table' in a relocatable link (-r) is not supported for these inputs"
  ARGS -arch=sm_75 -r ${fix}/05-func-pointer/sm_75-cuda11/main.cubin)


# Extern __shared__ arrays under -r are linked as nvlink 13.0 does for CUDA
# 13 cubins (corpus 139); with a CUDA 11.8 input among them (ELF ABI v7)
# that is not measured, so culd refuses, naming the first user.
culd_expect_refusal(${out}
  "extern __shared__ array 'dynF' (used by '_Z6scaledi') in a relocatable link (-r) of CUDA 11 cubins is not supported yet"
  ARGS -arch=sm_75 -r ${fix}/139-relocatable-extern-shared/sm_75/e.cubin
       ${fix}/01-single-kernel/sm_75-cuda11/k.cubin)
