// A 16-byte-aligned __shared__ array two kernels reach (coloured), a
// 32-byte-aligned one only kfirst reaches (moved into its window) and an
// extern __shared__ array kdyn uses, linked with -g. Every window takes
// the alignment of the module's shared memory (32); .nv_debug.shared
// stays, holding the coloured array, aligned to 32 (without -g it goes).
struct __align__(16) Block {
    float x[4];
};
struct __align__(32) Wide {
    float x[8];
};

__device__ __noinline__ float stage(int v)
{
    __shared__ Block t[2];
    t[threadIdx.x & 1].x[0] = (float)v;
    __syncthreads();
    return t[(v + 1) & 1].x[0];
}

__device__ __noinline__ float own(int v)
{
    __shared__ Wide w[2];
    w[threadIdx.x & 1].x[1] = (float)v;
    __syncthreads();
    return w[(v + 1) & 1].x[1];
}

__global__ void kfirst(int *o) { o[0] = (int)stage(o[1]) + (int)own(o[2]); }

__global__ void ksecond(int *o) { o[2] = (int)stage(o[3]); }

__global__ void kplain(int *o) { o[threadIdx.x] = 1; }

__global__ void kdyn(int *o)
{
    extern __shared__ int dyn[];
    dyn[threadIdx.x] = o[threadIdx.x];
    __syncthreads();
    o[1] = dyn[threadIdx.x ^ 1];
}
