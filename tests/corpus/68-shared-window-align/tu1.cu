// tools/difftest/gen.py seed 5049

__device__ __noinline__ int f6_dyn_sum(int n)
{
    extern __shared__ int f6_buf[];
    int s = 0;
    for (int j = 0; j < n; ++j) s += (int)f6_buf[j];
    return s;
}

__global__ void __maxnreg__(128) f6_kern1(int *out)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    extern __shared__ int dyn[];
    dyn[threadIdx.x] = out[i];
    __syncthreads();
    out[i] = f6_dyn_sum(threadIdx.x);
}
