template <int N>
__device__ __noinline__ float poly(const float *x)
{
    float r[N];
#pragma unroll
    for (int i = 0; i < N; ++i)
        r[i] = x[i * 17];
    float acc = 0.f;
#pragma unroll
    for (int i = 0; i < N; ++i)
#pragma unroll
        for (int j = 0; j < N; ++j)
            acc += r[i] * r[j];
    return acc;
}

__global__ void heavy_user(float *out, const float *x)
{
    out[threadIdx.x] = poly<20>(x + threadIdx.x);
}
