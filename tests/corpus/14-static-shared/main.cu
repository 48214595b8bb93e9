__device__ float block_sum(float v);

__global__ void reduce(float *out, const float *in)
{
    __shared__ float tile[128];
    tile[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
    __syncthreads();
    float s = block_sum(tile[127 - threadIdx.x]);
    if (threadIdx.x == 0)
        out[blockIdx.x] = s;
}

__global__ void plain(int *p)
{
    __shared__ int flag;
    if (threadIdx.x == 0)
        flag = 1;
    __syncthreads();
    p[threadIdx.x] = flag;
}
