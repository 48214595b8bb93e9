// 05-static-lib-path: red.cu - library member: warp reduction.
__device__ __noinline__ float red_warp_sum(float v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}
