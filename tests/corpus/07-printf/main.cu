#include <cstdio>

__device__ void report(int id, float v);

__global__ void hello(float v)
{
    printf("hello from %d.%d\n", blockIdx.x, threadIdx.x);
    report(threadIdx.x, v);
}
