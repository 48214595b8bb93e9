struct params { int n; float scale; int pad[2]; };

extern __device__ int g_count;
extern __device__ float g_data[256];
extern __device__ params g_params;

__device__ __noinline__ float read_scaled(int i)
{
    return g_data[i] * g_params.scale;
}

__global__ void use_vars(float *out)
{
    int i = threadIdx.x;
    if (i < g_params.n)
        out[i] = read_scaled(i);
    atomicAdd(&g_count, 1);
}
