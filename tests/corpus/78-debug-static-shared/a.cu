__device__ int dev(int i) {
    static __shared__ int fbuf[32];
    fbuf[i & 31] = i;
    __syncthreads();
    return fbuf[(i + 1) & 31];
}
__global__ void ka(int *p) {
    static __shared__ double kbuf[16];
    kbuf[threadIdx.x & 15] = p[0];
    __syncthreads();
    p[threadIdx.x] = dev(threadIdx.x) + (int)kbuf[(threadIdx.x + 1) & 15];
}
