__device__ __noinline__ float work(float x)
{
    return __sinf(x) * __expf(-x);
}
