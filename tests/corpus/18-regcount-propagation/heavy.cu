__device__ __noinline__ float heavy(const float *in, int i)
{
    float r[24];
#pragma unroll
    for (int k = 0; k < 24; ++k)
        r[k] = in[i + k * 32];
    float acc = 0.f;
#pragma unroll
    for (int k = 0; k < 24; ++k)
#pragma unroll
        for (int j = 0; j < 24; ++j)
            acc += r[k] * r[j] * (float)(k - j);
    return acc;
}
