__device__ int leaf(int x);

__device__ __noinline__ int helper_b(int x)
{
    return x ^ 0x55;
}

__device__ __noinline__ int mid(int x)
{
    return leaf(x + 1) * 2;
}
