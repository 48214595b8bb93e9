#include <cstdio>
extern __device__ int f(int);
__global__ void k(int *p) { p[threadIdx.x] = f(p[threadIdx.x]); }
__global__ void k2(int *p) { printf("%d\n", p[0]); }
