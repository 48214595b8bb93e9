#include <cassert>

__device__ int checked_div(int a, int b);

__global__ void divide(int *out, const int *a, const int *b)
{
    int i = threadIdx.x;
    assert(a[i] >= 0);
    out[i] = checked_div(a[i], b[i]);
}
