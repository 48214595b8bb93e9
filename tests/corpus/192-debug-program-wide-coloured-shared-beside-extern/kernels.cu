// Corpus 188's program compiled with -G and linked with -g: a 32-byte-
// aligned __shared__ array kfirst and ksecond reach (coloured), an extern
// __shared__ array kdyn uses, and kplain without shared memory.
// .nv_debug.shared stays under -g, spanning the coloured array (and the
// reservation on sm_90+), aligned to 32; on sm_90 kplain and kdyn get
// windows of the reservation alone, on sm_100 and sm_120 they get none.
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
