__device__ int stage_a(int v);
__device__ int stage_b(int v);

__global__ void kAB(int *p)
{
    __shared__ int own[64];
    own[threadIdx.x & 63] = p[threadIdx.x];
    __syncthreads();
    p[threadIdx.x] = stage_a(own[threadIdx.x & 63]) + stage_b(p[threadIdx.x]);
}

__global__ void kNone(int *p) { p[threadIdx.x] += 1; }
