// A module shared double no kernel reaches is not dropped: it is coloured
// with no kernels, so it joins the first group (with tu1's u, which then
// spans 32 bytes and pushes t to 0x20), and its file's .nv_debug.shared
// (align 8) sets the windows' alignment.
__device__ __noinline__ double unreached(int v)
{
    __shared__ double x[4];
    x[threadIdx.x % 4] = v;
    __syncthreads();
    return x[(v + 1) % 4];
}
