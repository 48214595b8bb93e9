template <int N>
__device__ __noinline__ float poly(const float *x)
{
    return x[0] * N;
}

__global__ void light_user(float *out, const float *x)
{
    out[threadIdx.x] = poly<20>(x + threadIdx.x);
}
