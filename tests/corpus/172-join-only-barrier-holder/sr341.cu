// Kernel sr341_2 of gen-special-registers.py (seed 341).
__device__ __forceinline__ int lane() { int v; asm volatile("mov.u32 %0, %%laneid;" : "=r"(v)); return v; }
__device__ __forceinline__ int smid() { int v; asm volatile("mov.u32 %0, %%smid;" : "=r"(v)); return v; }
__device__ __forceinline__ int warpid() { int v; asm volatile("mov.u32 %0, %%warpid;" : "=r"(v)); return v; }
extern "C" __global__ void sr341_2(int *p, float *f, int n) { __shared__ int s[64]; int i = threadIdx.x + blockIdx.x * blockDim.x; int acc = (int)(f[i] * 1.5f); s[i & 63] = i; __syncthreads(); f[i + 2] = (float)acc; if (blockIdx.y & 4) { s[i & 63] = __shfl_xor_sync(0xffffffff, acc, 1); __syncthreads(); } else { acc += s[(i + 47) & 63]; } f[i + 7] = (float)acc; p[i + 100] = acc; }
