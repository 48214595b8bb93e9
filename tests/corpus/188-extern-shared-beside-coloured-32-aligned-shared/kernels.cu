// A final link with a 32-byte-aligned __shared__ array two kernels reach
// (coloured) and an extern __shared__ array another kernel uses. nvlink's
// windows differ by target here: on sm_90 every kernel gets one, aligned
// to 32; on sm_75, sm_89, sm_100 and sm_120 the extern array's user gets
// none; .nv_debug.shared goes on all of them (generated seed 101537's
// host link, where host-side dead-code elimination left such an array
// reached by no kernel).
struct __align__(32) Block {
    float x[8];
};

__device__ __noinline__ float stage(int v)
{
    __shared__ Block t[2];
    t[threadIdx.x & 1].x[0] = (float)v;
    __syncthreads();
    return t[(v + 1) & 1].x[0];
}

__global__ void kfirst(int *o) { o[0] = (int)stage(o[1]); }

__global__ void ksecond(int *o) { o[2] = (int)stage(o[3]); }

__global__ void kplain(int *o) { o[threadIdx.x] = 1; }

__global__ void kdyn(int *o)
{
    extern __shared__ int dyn[];
    dyn[threadIdx.x] = o[threadIdx.x];
    __syncthreads();
    o[1] = dyn[threadIdx.x ^ 1];
}
