// A weak copy of pick with a stack frame (a local array indexed at run
// time) that refers to nothing: no call, no data. The later copy in
// small.cu has fewer registers and replaces it; on sm_90 nvlink keeps this
// copy's frame-entry relocation (culd dropped it: it went by the frame).
inline __device__ __noinline__ int pick(int x) {
    int loc[64];
    for (int i = 0; i < 64; ++i)
        loc[i] = x * i + threadIdx.x;
    return loc[x & 63] + loc[(x * 7) & 63];
}
__global__ void k_frame(int *p) { p[threadIdx.x] = pick(p[threadIdx.x]); }
