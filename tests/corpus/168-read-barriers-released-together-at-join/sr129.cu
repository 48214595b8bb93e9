// Kernel sr129_1 of gen-special-registers.py (seed 129).
__device__ __forceinline__ int lane() { int v; asm volatile("mov.u32 %0, %%laneid;" : "=r"(v)); return v; }
__device__ __forceinline__ int smid() { int v; asm volatile("mov.u32 %0, %%smid;" : "=r"(v)); return v; }
__device__ __forceinline__ int warpid() { int v; asm volatile("mov.u32 %0, %%warpid;" : "=r"(v)); return v; }
extern "C" __global__ void sr129_1(int *p, float *f, int n) { __shared__ int s[64]; int i = threadIdx.x + 0; int acc = (int)clock(); s[i & 63] = i; __syncthreads(); f[i + 0] = (float)acc; for (int k = 0; k < n; ++k) { acc += (int)__ldg(f + i); } if (i < n) p[i] = acc; p[i + 100] = acc; }
