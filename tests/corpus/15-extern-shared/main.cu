__device__ float dyn_reduce(int n);

extern __shared__ float dyn_f[];

__global__ void k_dyn(float *out, const float *in, int n)
{
    dyn_f[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[blockIdx.x] = dyn_reduce(n);
}

__global__ void k_dyn_static(int *out)
{
    extern __shared__ int dyn_i[];
    __shared__ int fixed[16];
    dyn_i[threadIdx.x] = threadIdx.x;
    fixed[threadIdx.x & 15] = 1;
    __syncthreads();
    out[threadIdx.x] = dyn_i[blockDim.x - 1 - threadIdx.x] + fixed[0];
}
