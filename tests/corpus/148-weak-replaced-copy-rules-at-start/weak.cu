// A weak pick() (generated body) whose frame program starts with its CFA
// rule, replaced by strong.cu's, whose program starts with an advance.
#include <cuda_fp16.h>
inline __device__ __noinline__ int pick(int *p, float *q, int x, int y, float f, double d) {
    int i0 = atomicExch(p + ((x) & 63), x);
    float f1 = f;
    for (int i = 0; i < (x & 7); ++i) y += p[i] * y;
    return (int)(((__mulhi(__any_sync(0xffffffff, (-5) == 1), (i0 + 1000))) << (((int)__byte_perm(atomicCAS(p + ((y) & 63), i0, 5), 7, 0x5410)) & 7)));
}
__global__ void k_weak(int *p, float *q, int x, int y, float f, double d) { p[threadIdx.x] = pick(p, q, x, y, f, d); }
