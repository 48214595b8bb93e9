// A final link with dynamic parallelism (libcudadevrt's memset and memcpy
// kernels come with it; the memcpy ones have 0x808-byte windows), a float4
// __shared__ array two kernels reach (coloured, aligned to 16) and an
// extern __shared__ array: every kernel gets a window, the device
// runtime's memset kernels empty ones. nvlink puts them in its code order,
// which culd's does not follow for the device runtime's kernels (they come
// reversed); after a 0x808-byte window the padding before a 16-aligned one
// changes the read-write segment's size. culd refuses the link, naming
// the kernels (generated seed 101535, sm_75-sm_120; a known gap).
__device__ __noinline__ float stage(int v)
{
    __shared__ float4 t[2];
    t[threadIdx.x & 1] = make_float4((float)v, 0.f, 0.f, 1.f);
    __syncthreads();
    return t[(v + 1) & 1].x;
}

__global__ void kfirst(int *o) { o[0] = (int)stage(o[1]); }

__global__ void ksecond(int *o) { o[2] = (int)stage(o[3]); }

__global__ void kdyn(int *o)
{
    extern __shared__ int dyn[];
    dyn[threadIdx.x] = o[threadIdx.x];
    __syncthreads();
    o[1] = dyn[threadIdx.x ^ 1];
}

__global__ void child(int *o) { o[threadIdx.x] += 1; }

__global__ void parent(int *o)
{
    if (threadIdx.x == 0) {
        child<<<1, 32>>>(o);
        o[1] = (int)cudaGetLastError();
    }
}
