// The strong pick() (generated body) that replaces weak.cu's.
#include <cuda_fp16.h>
__device__ __noinline__ int pick(int *p, float *q, int x, int y, float f, double d) {
    int i0 = (atomicExch(p + ((max(-5, x)) & 63), (int)__sad(1, y, 3u)) | x);
    for (int i = 0; i < (x & 7); ++i) y += p[i] * i0;
    return (int)(__any_sync(0xffffffff, (74565) == 1));
}
__global__ void k_strong(int *p, float *q, int x, int y, float f, double d) { p[threadIdx.x] = pick(p, q, x, y, f, d); }
