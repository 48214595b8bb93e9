#include <cstdlib>

__device__ __noinline__ int *make_buf(int n)
{
    return (int *)malloc(n * sizeof(int));
}

__device__ __noinline__ void drop_buf(int *p)
{
    free(p);
}
