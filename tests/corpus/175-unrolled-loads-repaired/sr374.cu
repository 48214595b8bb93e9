// Kernel sr374_1 of gen-special-registers.py (seed 374).
__device__ __forceinline__ int lane() { int v; asm volatile("mov.u32 %0, %%laneid;" : "=r"(v)); return v; }
__device__ __forceinline__ int smid() { int v; asm volatile("mov.u32 %0, %%smid;" : "=r"(v)); return v; }
__device__ __forceinline__ int warpid() { int v; asm volatile("mov.u32 %0, %%warpid;" : "=r"(v)); return v; }
extern "C" __global__ void sr374_1(int *p, float *f, int n) { __shared__ int s[64]; int i = threadIdx.x + blockIdx.x * blockDim.x; int acc = (int)__ldg(f + i); s[i & 63] = i; __syncthreads(); for (int k = 0; k < n; ++k) { if (s[(i + 0) & 63] & 3) { acc += p[i + 1]; } else { acc += s[(i + 32) & 63]; } } for (int k = 0; k < n; ++k) { acc ^= warpid() * __shfl_xor_sync(0xffffffff, acc, 16); } acc += p[i + 14]; acc ^= blockDim.x * p[i + 5]; acc += gridDim.x; if (i < n) p[i] = acc; p[i + 100] = acc; }
