// A relocatable link (-r) of a unit with 8 bytes of module shared memory
// (two 4-byte variables, each reached by its own kernel) and an extern
// __shared__ array another kernel uses. nvlink's .nv_debug.shared grows to
// 0x18 (16 bytes past the variables); over 16 bytes of variables it keeps
// the unit's size. culd kept 0x8, exit 0, before refusing this shape.
__shared__ int ga[1];
__shared__ int gb[1];

__device__ __noinline__ int fa(int v)
{
    ga[0] = v;
    __syncthreads();
    return ga[0] + 1;
}

__device__ __noinline__ int fb(int v)
{
    gb[0] = v;
    __syncthreads();
    return gb[0] * 2;
}

__global__ void ka(int *out) { out[threadIdx.x] += fa(out[threadIdx.x]); }

__global__ void kb(int *out) { out[threadIdx.x] += fb(out[threadIdx.x]); }

__global__ void kd(int *out)
{
    extern __shared__ int dyn[];
    dyn[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = dyn[threadIdx.x ^ 1];
}
