extern __shared__ float dyn_f[];

__device__ __noinline__ float dyn_reduce(int n)
{
    float s = 0.f;
    for (int i = 0; i < n; ++i)
        s += dyn_f[i];
    return s;
}
