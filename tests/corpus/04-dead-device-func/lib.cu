__device__ __noinline__ int used_fn(int x)
{
    return x * 5 - 1;
}

__device__ __noinline__ int unused_fn(int x)
{
    return x * x * x;
}

__device__ __noinline__ int unused_caller(int x)
{
    return unused_fn(x) + 2;
}
