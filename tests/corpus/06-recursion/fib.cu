__device__ int even(int n);

__device__ __noinline__ int fib(int n)
{
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2) + even(n);
}

__device__ __noinline__ int odd(int n)
{
    return n == 0 ? 0 : even(n - 1);
}

__device__ __noinline__ int even(int n)
{
    return n == 0 ? 1 : odd(n - 1);
}
