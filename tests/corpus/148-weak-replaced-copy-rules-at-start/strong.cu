// The strong pick() (generated body) that replaces weak.cu's.
#include <cuda_fp16.h>
__device__ __noinline__ int pick(int *p, float *q, int x, int y, float f, double d) {
    float f0 = __fdividef(__expf(__saturatef(f)), __half2float(__float2half(fminf(3.0f, f))));
    int i1 = atomicExch(p + (((int)__sad(65536, 1, 3u)) & 63), (int)min((unsigned)(x), (unsigned)(x)));
    if (y > 3) p[y & 63] = y;
    return (int)(y);
}
__global__ void k_strong(int *p, float *q, int x, int y, float f, double d) { p[threadIdx.x] = pick(p, q, x, y, f, d); }
