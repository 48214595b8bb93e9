// A relocatable link (-r) of kernels using an extern __shared__ array
// beside another unit's 32-byte-aligned module shared memory. nvlink
// aligns every window to 32 and sizes it anew: a kernel whose own code
// uses the array spans its instance (its variables' end rounded up to
// 16) plus 32 (0x30 for an int[2]); one without variables gets no window
// (at 16 it gets a 0x10 one); a kernel reaching the array only through a
// device function gets no instance and its window stays at its own
// variables (0x2c for an int[3]). .nv_debug.shared: 32 bytes of
// variables grow to 0x40. culd refused this link before.
extern __shared__ float dyn[];

__device__ __noinline__ float exchange(float *o)
{
    dyn[threadIdx.x] = o[threadIdx.x];
    __syncthreads();
    return dyn[threadIdx.x ^ 1];
}

__global__ void kown(float *o)
{
    __shared__ int s[2];
    s[threadIdx.x & 1] = threadIdx.x;
    dyn[threadIdx.x] = o[threadIdx.x];
    __syncthreads();
    o[threadIdx.x + 1] = dyn[threadIdx.x ^ 1] + s[(threadIdx.x + 1) & 1];
}

__global__ void kdyn(float *o)
{
    dyn[threadIdx.x] = o[threadIdx.x];
    __syncthreads();
    o[threadIdx.x + 1] = dyn[threadIdx.x ^ 1];
}

__global__ void kcall(float *o)
{
    __shared__ int s[3];
    s[threadIdx.x % 3] = threadIdx.x;
    __syncthreads();
    o[threadIdx.x] = s[(threadIdx.x + 1) % 3] + exchange(o);
}

__global__ void knone(float *o) { o[threadIdx.x] = 1.0f; }
