__device__ int helper(int v);

__global__ void with_smem(int *p)
{
    __shared__ int s[100];
    extern __shared__ int dyn[];
    s[threadIdx.x % 100] = p[threadIdx.x];
    dyn[threadIdx.x] = 1;
    __syncthreads();
    p[threadIdx.x] = helper(s[0] + dyn[0]);
}

__global__ void no_smem(int *p) { p[threadIdx.x] = helper(3); }
