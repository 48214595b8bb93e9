# A kernel defined weak in one input and strong in another is refused, in
# either order, with a non-zero exit and no output (culd wrote a cubin
# different from nvlink's before: tests/inputs/weak-strong-kernel/README.md).
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/lib/Refusals.cmake)
set(in ${SOURCE_DIR}/tests/inputs/weak-strong-kernel)
set(out ${BINARY_DIR}/cli-weak-strong-kernel.cubin)
foreach(sm 89 100)
  culd_expect_refusal(${out}
    "special.sm_${sm}.cubin: kernel 'void k<1>(int *)' is defined both weak and strong (first in '${in}/implicit.sm_${sm}.cubin'), which culd does not link yet"
    ARGS -arch=sm_${sm} ${in}/implicit.sm_${sm}.cubin ${in}/special.sm_${sm}.cubin)
  culd_expect_refusal(${out}
    "implicit.sm_${sm}.cubin: kernel 'void k<1>(int *)' is defined both weak and strong"
    ARGS -arch=sm_${sm} ${in}/special.sm_${sm}.cubin ${in}/implicit.sm_${sm}.cubin)
endforeach()
