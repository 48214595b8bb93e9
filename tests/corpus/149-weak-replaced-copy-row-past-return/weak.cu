// A weak pick() (generated body) longer than strong.cu's: its return row
// lies at the very end of the winner's Mercury code (sm_100, 103, 110).
#include <cuda_fp16.h>
inline __device__ __noinline__ int pick(int *p, float *q, int x, int y, float f, double d) {
    float f0 = fmaf(f, 1.5f, f);
    float f1 = __fsqrt_rn(f0);
    int i2 = (max(x, y) | (int)__ballot_sync(0xffffffff, (y) > 2));
    return (int)((int)min((unsigned)((int)__sad(__shfl_up_sync(0xffffffff, x, 1), -5, 3u)), (unsigned)(y)));
}
__global__ void k_weak(int *p, float *q, int x, int y, float f, double d) { p[threadIdx.x] = pick(p, q, x, y, f, d); }
