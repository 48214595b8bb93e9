__device__ __noinline__ int stage_a(int v)
{
    __shared__ int buf_a[256];
    buf_a[threadIdx.x & 255] = v;
    __syncthreads();
    return buf_a[(threadIdx.x + 1) & 255];
}

__device__ __noinline__ int stage_b(int v)
{
    __shared__ long long buf_b[40];
    buf_b[threadIdx.x % 40] = v;
    __syncthreads();
    return (int)buf_b[(threadIdx.x + 3) % 40] + stage_a(v);
}
