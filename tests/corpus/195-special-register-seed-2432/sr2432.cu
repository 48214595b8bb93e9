// tests/inputs/mercury-finalizer/gen-special-registers.py 2432: culd's finaliser writes
// scoreboard fields other than nvlink's for some kernel of this file on
// sm_100 and sm_120, exit 0 (a known gap; docs/nvlink-findings.md).
__device__ __forceinline__ int lane() { int v; asm volatile("mov.u32 %0, %%laneid;" : "=r"(v)); return v; }
__device__ __forceinline__ int smid() { int v; asm volatile("mov.u32 %0, %%smid;" : "=r"(v)); return v; }
__device__ __forceinline__ int warpid() { int v; asm volatile("mov.u32 %0, %%warpid;" : "=r"(v)); return v; }
extern "C" __global__ void sr2432_0(int *p, float *f, int n) { __shared__ int s[64]; int i = threadIdx.x + 0; int acc = (int)__ldg(f + i); s[i & 63] = i; __syncthreads(); acc += threadIdx.x; if (i < n) p[i] = acc; acc += smid(); if (i < n) p[i] = acc; p[i + 100] = acc; }
extern "C" __global__ void sr2432_1(int *p, float *f, int n) { __shared__ int s[64]; int i = threadIdx.x + 0; int acc = (int)__ldg(f + i); s[i & 63] = i; __syncthreads(); for (int k = 0; k < n; ++k) { if (s[(i + 41) & 63] & 6) { s[i & 63] = blockIdx.x; __syncthreads(); } else { if (warpid() == 0) return; } } s[i & 63] = (int)(f[i] * 1.5f); __syncthreads(); if (__shfl_xor_sync(0xffffffff, acc, 2) & 4) { acc += gridDim.x; } else { acc += s[(i + 25) & 63]; } acc += blockDim.x; p[i + 100] = acc; }
extern "C" __global__ void sr2432_2(int *p, float *f, int n) { __shared__ int s[64]; int i = threadIdx.x + 0; int acc = (int)clock(); s[i & 63] = i; __syncthreads(); acc ^= warpid() * (int)(f[i] * 2.5f); if (gridDim.x == 1) return; acc += blockIdx.x; f[i + 2] = (float)acc; p[i + 100] = acc; }
