// A later kernel with a small window of its own.
__device__ int seen;

__global__ void k_second(int *out) {
    __shared__ int one[1];
    one[0] = threadIdx.x;
    __syncthreads();
    atomicAdd(&seen, one[0]);
    out[0] = seen;
}
