// A relocatable link (-r) of kernels with small static __shared__ windows
// beside another unit's 16-byte-aligned module shared memory (a template
// kernel's float4 array), no extern arrays. nvlink aligns every window to
// the module shared memory's 16, reaching it or not, and sizes it anew:
// a window holding no more than its alignment grows by it (an int: 0x14,
// a char: 0x11), a larger one keeps its size (int[5]: 0x14). culd kept
// ptxas's sizes and alignment 4, exit 0, before.
__global__ void kint(float *o)
{
    __shared__ int s[1];
    s[0] = threadIdx.x;
    __syncthreads();
    o[threadIdx.x] = s[0];
}

__global__ void kchar(float *o)
{
    __shared__ char s[1];
    s[0] = (char)threadIdx.x;
    __syncthreads();
    o[threadIdx.x] = s[0];
}

__global__ void kbig(float *o)
{
    __shared__ int s[5];
    s[threadIdx.x % 5] = threadIdx.x;
    __syncthreads();
    o[threadIdx.x] = s[(threadIdx.x + 1) % 5];
}

__global__ void knone(float *o) { o[threadIdx.x] = 1.0f; }
