__device__ int warp_reduce(int v);

__global__ void warp_ops(int *out, const int *in)
{
    int v = in[threadIdx.x];
    unsigned all = __activemask();
    unsigned b = __ballot_sync(all, v > 0);
    int any = __any_sync(all, v == 7);
    int alls = __all_sync(all, v != 0);
    unsigned m = __match_any_sync(all, v);
    int x = __shfl_xor_sync(all, v, 1) + __shfl_up_sync(all, v, 2) + __shfl_sync(all, v, 0);
    out[threadIdx.x] = warp_reduce(v) + __popc(b) + any + alls + __popc(m) + x;
}
