__device__ int b_var = 17;
__device__ __noinline__ int b_fn(int x)
{
    __shared__ int s[32];
    s[threadIdx.x & 31] = x;
    __syncthreads();
    return s[(threadIdx.x + 1) & 31];
}
