// A final link of kernels around a device function whose float4
// __shared__ array two kernels reach (so it stays coloured in
// .nv_debug.shared, aligned to 16), an extern __shared__ array one kernel
// uses, and a kernel with no shared memory at all. nvlink gives every
// kernel a window, aligned to 16: kplain's holds nothing (the reservation
// on sm_90 and later). With the array aligned to 8 it gets none. culd gave
// kplain none, exit 0 (generated seed 101535, sm_75-sm_120).
__device__ __noinline__ float stage(int v)
{
    __shared__ float4 t[2];
    t[threadIdx.x & 1] = make_float4((float)v, 0.f, 0.f, 1.f);
    __syncthreads();
    return t[(v + 1) & 1].x;
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
