__device__ int helper_b(int x);

__device__ __noinline__ int leaf(int x)
{
    return helper_b(x) + 7;
}
