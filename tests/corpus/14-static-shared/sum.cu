__device__ __noinline__ float block_sum(float v)
{
    __shared__ float partial[32];
    __shared__ double scratch_d;
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
        partial[warp] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        scratch_d = 0.0;
        for (int w = 0; w < (blockDim.x >> 5); ++w)
            scratch_d += partial[w];
    }
    __syncthreads();
    return (float)scratch_d;
}
