// Module shared variables that two kernels reach stay coloured, so every
// window takes the inputs' module-shared alignment: 8 from tu2, not 4 (this
// file's) nor 16 (the section's, for the extern arrays of tu0).
__device__ __noinline__ int shared_by_two(int v)
{
    __shared__ char t[3];
    t[threadIdx.x % 3] = (char)v;
    __syncthreads();
    return t[(v + 1) % 3];
}

__device__ __noinline__ int also_shared_by_two(int v)
{
    __shared__ int u[2];
    u[threadIdx.x % 2] = v;
    __syncthreads();
    return u[(v + 1) % 2];
}

__global__ void k_own_and_coloured(int *out)
{
    __shared__ char s[5];
    s[threadIdx.x % 5] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = s[(threadIdx.x + 3) % 5] + shared_by_two(out[threadIdx.x]) +
                       also_shared_by_two(out[threadIdx.x]);
}

__global__ void k_coloured_only(int *out)
{
    out[threadIdx.x] = shared_by_two(out[threadIdx.x]) + also_shared_by_two(out[threadIdx.x]);
}

__global__ void k_own_only(int *out)
{
    __shared__ char s[2];
    s[threadIdx.x % 2] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = s[(threadIdx.x + 3) % 2];
}
