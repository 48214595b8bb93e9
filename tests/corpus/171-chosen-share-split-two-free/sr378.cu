// Kernel sr378_0 of gen-special-registers.py (seed 378).
__device__ __forceinline__ int lane() { int v; asm volatile("mov.u32 %0, %%laneid;" : "=r"(v)); return v; }
__device__ __forceinline__ int smid() { int v; asm volatile("mov.u32 %0, %%smid;" : "=r"(v)); return v; }
__device__ __forceinline__ int warpid() { int v; asm volatile("mov.u32 %0, %%warpid;" : "=r"(v)); return v; }
extern "C" __global__ void sr378_0(int *p, float *f, int n) { __shared__ int s[64]; int i = threadIdx.x + blockIdx.x * blockDim.x; int acc = (int)(f[i] * 3.5f); s[i & 63] = i; __syncthreads(); for (int k = 0; k < n; ++k) { if (blockIdx.x == 3) return; } if (s[(i + 18) & 63] == 1) return; p[i + 100] = acc; }
