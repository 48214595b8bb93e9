// Kernel sr821_0 of gen-special-registers.py (seed 821).
__device__ __forceinline__ int lane() { int v; asm volatile("mov.u32 %0, %%laneid;" : "=r"(v)); return v; }
__device__ __forceinline__ int smid() { int v; asm volatile("mov.u32 %0, %%smid;" : "=r"(v)); return v; }
__device__ __forceinline__ int warpid() { int v; asm volatile("mov.u32 %0, %%warpid;" : "=r"(v)); return v; }
extern "C" __global__ void sr821_0(int *p, float *f, int n) { __shared__ int s[64]; int i = threadIdx.x + 0; int acc = smid(); s[i & 63] = i; __syncthreads(); f[i + 4] = (float)acc; if (i < n) p[i] = acc; if ((int)(f[i] * 0.5f) & 4) { acc += (int)__ldg(f + i); } else { acc += (int)clock(); } if (i < n) p[i] = acc; for (int k = 0; k < n; ++k) { if (blockDim.x & 6) { acc += s[(i + 48) & 63]; } else { if (s[(i + 0) & 63] == 0) return; } } acc += (int)clock(); p[i + 100] = acc; }
