#include <cstdio>
extern __device__ int f(int);
__device__ __noinline__ void unused(int x) { printf("%d\n", x); }
__global__ void k(int *p) { p[threadIdx.x] = f(p[threadIdx.x]); }
