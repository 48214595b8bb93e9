template <typename T>
__device__ __noinline__ T mix(T x, T y)
{
    return x * (T)3 + y;
}

__global__ void use_b(float *pf, int *pi)
{
    pf[threadIdx.x] = mix<float>(pf[threadIdx.x], 1.0f);
    pi[threadIdx.x] = mix<int>(pi[threadIdx.x], 2);
}
