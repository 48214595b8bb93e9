# An sm_100+ final link whose capsule relocation against constant data
# resolves to a non-zero offset is refused, naming the relocation, with a
# non-zero exit and no output: nvlink writes that offset into the capsule's
# record of the load, which culd does not decode yet (it wrote the capsule
# unpatched, exit 0, before the refusal; corpus 134), in a final link and
# under -r alike.
cmake_minimum_required(VERSION 3.25)
set(input ${SOURCE_DIR}/tests/fixtures/134-capsule-constant-offset/sm_100/a.cubin)
set(out ${BINARY_DIR}/cli-capsule-refusals.cubin)
file(REMOVE ${out})
execute_process(COMMAND ${CULD} -arch=sm_100 ${input} -o ${out}
  RESULT_VARIABLE rc ERROR_VARIABLE se)
set(expected "relocation R_MERCURY_ABS16 at offset 0x1c against 'c' resolves to a non-zero constant-bank offset, which nvlink writes into the capsule; culd does not write it there yet")
string(FIND "${se}" "${expected}" at)
if(rc EQUAL 0 OR at EQUAL -1 OR EXISTS ${out})
  message(FATAL_ERROR "expected a refusal with '${expected}', got exit ${rc}, stderr:\n${se}")
endif()
# -r writes it into the capsule too: refused as well.
file(REMOVE ${out})
execute_process(COMMAND ${CULD} -r -arch=sm_100 ${input} -o ${out}
  RESULT_VARIABLE rc ERROR_VARIABLE se)
string(FIND "${se}" "${expected}" at)
if(rc EQUAL 0 OR at EQUAL -1 OR EXISTS ${out})
  message(FATAL_ERROR "-r: expected the same refusal, got exit ${rc}, stderr:\n${se}")
endif()
