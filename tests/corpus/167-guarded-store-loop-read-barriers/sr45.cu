// Kernel sr45_0 of gen-special-registers.py (seed 45).
__device__ __forceinline__ int lane() { int v; asm volatile("mov.u32 %0, %%laneid;" : "=r"(v)); return v; }
__device__ __forceinline__ int smid() { int v; asm volatile("mov.u32 %0, %%smid;" : "=r"(v)); return v; }
__device__ __forceinline__ int warpid() { int v; asm volatile("mov.u32 %0, %%warpid;" : "=r"(v)); return v; }
extern "C" __global__ void sr45_0(int *p, float *f, int n) { __shared__ int s[64]; int i = threadIdx.x + 0; int acc = (int)__ldg(f + i); s[i & 63] = i; __syncthreads(); if (blockDim.x == 0) return; for (int k = 0; k < n; ++k) { if (i < n) p[i] = acc; } s[i & 63] = (int)(f[i] * 3.5f); __syncthreads(); s[i & 63] = (int)(f[i] * 2.5f); __syncthreads(); p[i + 100] = acc; }
