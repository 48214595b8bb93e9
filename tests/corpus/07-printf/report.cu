#include <cstdio>

__device__ __noinline__ void report(int id, float v)
{
    printf("thread %d value %f\n", id, (double)v);
}
