// A module shared double no kernel reaches: the variable is dropped, but its
// file's .nv_debug.shared (align 8) still sets the windows' alignment.
__device__ __noinline__ double unreached(int v)
{
    __shared__ double x[4];
    x[threadIdx.x % 4] = v;
    __syncthreads();
    return x[(v + 1) % 4];
}
