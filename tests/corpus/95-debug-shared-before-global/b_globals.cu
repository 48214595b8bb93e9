// A __device__ global (an uninitialised .nv.global of 0x14 bytes, align 8)
// and a kernel with its own small window.
__device__ double acc[2];
__device__ int hits;

__global__ void k_glob(int *out) {
    __shared__ int tile[1];
    tile[0] = threadIdx.x;
    __syncthreads();
    atomicAdd(&hits, tile[0]);
    acc[threadIdx.x & 1] += 1.0;
    out[0] = hits;
}
