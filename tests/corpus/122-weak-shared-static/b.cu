// The same function in another unit: its copy and its array lose.
inline __device__ __noinline__ int pick(int x) {
    __shared__ int buf[64];
    buf[threadIdx.x & 63] = x;
    __syncthreads();
    return buf[(threadIdx.x + 1) & 63];
}
__global__ void k_b(int *p) { p[threadIdx.x] = pick(p[threadIdx.x]); }
