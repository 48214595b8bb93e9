# Relocatable links (-r) culd does not model yet are refused, naming what,
# with a non-zero exit and no output, rather than written different from
# nvlink's (this one was, exit 0, before the refusal): libcudadevrt's
# device runtime pulled into a -r link (a kernel launching a kernel: nvlink
# lists every memcpy/memset_3d_device kernel in the launching kernel's
# EXTERNS, writes the prototypes of every __cudaCDP2 entry point and sets
# .nv.ptx.const0.size's symbol value, sm_89-sm_120).
cmake_minimum_required(VERSION 3.25)
set(dir ${SOURCE_DIR}/tests/host-fixtures/02-dynamic-parallelism/sm_90)
set(out ${BINARY_DIR}/cli-relocatable-refusals.cubin)
file(REMOVE ${out})
execute_process(COMMAND ${CULD} -arch=sm_90 -r child.o parent.o
    -L${SOURCE_DIR}/tests/host-fixtures/lib -lcudadevrt -o ${out}
  WORKING_DIRECTORY ${dir} RESULT_VARIABLE rc ERROR_VARIABLE se)
set(expected "libcudadevrt.a:cuda_device_runtime.o: linking the device runtime library into a relocatable link (-r) is not supported yet")
string(FIND "${se}" "${expected}" at)
if(rc EQUAL 0 OR at EQUAL -1 OR EXISTS ${out})
  message(FATAL_ERROR "expected a refusal with '${expected}', got exit ${rc}, stderr:\n${se}")
endif()
# Without the device runtime's code the same inputs link under -r.
execute_process(COMMAND ${CULD} -arch=sm_90 -r child.o -o ${out}
  WORKING_DIRECTORY ${dir} RESULT_VARIABLE rc ERROR_VARIABLE se)
if(NOT rc EQUAL 0 OR NOT EXISTS ${out})
  message(FATAL_ERROR "-r child.o: exit ${rc}, stderr:\n${se}")
endif()
# An undefined __constant__ variable under -r: nvlink patches -1 into the
# code using it and drops the relocation, so the final link cannot resolve
# it (the code reads c[3][0xffff]); culd wrote 0, exit 0, before refusing.
# (An undefined extern __device__ is linked: corpus 135.)
set(unit ${SOURCE_DIR}/tests/fixtures/12-constant/sm_90/main.cubin)
file(REMOVE ${out})
execute_process(COMMAND ${CULD} -arch=sm_90 -r ${unit} -o ${out}
  RESULT_VARIABLE rc ERROR_VARIABLE se)
set(expected "against the undefined variable 'coeffs' in a relocatable link (-r): nvlink writes -1 there and drops the reference, which the final link then cannot resolve")
string(FIND "${se}" "${expected}" at)
if(rc EQUAL 0 OR at EQUAL -1 OR EXISTS ${out})
  message(FATAL_ERROR "expected a refusal with '${expected}', got exit ${rc}, stderr:\n${se}")
endif()
# An undefined variable in CUDA 11.8 input (ELF ABI v7) under -r: what that
# toolkit's nvlink writes for it is not measured, so it stays refused (CUDA
# 13 inputs are linked with the value -1, corpus 135).
set(unit ${SOURCE_DIR}/tests/fixtures/05-func-pointer/sm_75-cuda11/main.cubin)
file(REMOVE ${out})
execute_process(COMMAND ${CULD} -arch=sm_75 -r ${unit} -o ${out}
  RESULT_VARIABLE rc ERROR_VARIABLE se)
set(expected "undefined variable 'op_table' in a relocatable link (-r) is not supported for these inputs")
string(FIND "${se}" "${expected}" at)
if(rc EQUAL 0 OR at EQUAL -1 OR EXISTS ${out})
  message(FATAL_ERROR "expected a refusal with '${expected}', got exit ${rc}, stderr:\n${se}")
endif()
# The losing copy of a weak shared variable beside another variable of its
# unit's .nv_debug.shared under -r: nvlink drops the loser alone; culd
# refuses, naming the section (a lone loser's section is dropped: corpus
# 137).
set(dir ${SOURCE_DIR}/tests/fixtures/138-relocatable-weak-shared-mixed/sm_90)
file(REMOVE ${out})
execute_process(COMMAND ${CULD} -arch=sm_90 -r ${dir}/a.cubin ${dir}/b.cubin -o ${out}
  RESULT_VARIABLE rc ERROR_VARIABLE se)
set(expected "b.cubin: section '.nv_debug.shared' holds weak shared variables that lost to earlier definitions beside others")
string(FIND "${se}" "${expected}" at)
if(rc EQUAL 0 OR at EQUAL -1 OR EXISTS ${out})
  message(FATAL_ERROR "expected a refusal with '${expected}', got exit ${rc}, stderr:\n${se}")
endif()
