#include <cstdio>
__constant__ int cvals[16];
__device__ int gcount;
extern __device__ int bfunc(int x);
__device__ __noinline__ int helper(int x) { return x * cvals[x & 15]; }
__global__ void kern(int *out, int n) {
    __shared__ int tile[64];
    tile[threadIdx.x & 63] = n;
    __syncthreads();
    out[threadIdx.x] = helper(tile[(threadIdx.x + 1) & 63]) + bfunc(n);
    atomicAdd(&gcount, 1);
    if (n == 7) printf("n=%d\n", n);
}
