#include <cstdio>
__device__ float scale = 3.0f;
__device__ int helper(int x) { return x * x + 1; }
__device__ int bar(int x) { return helper(x) + 7; }
// printf: vprintf is a ptxas built-in, not a call into non-LTO code.
__global__ void other(int *p) {
    p[threadIdx.x] = bar(threadIdx.x) * (int)scale;
    if (threadIdx.x == 0)
        printf("other %d\n", p[0]);
}
