__device__ int dev(int i);
__global__ void kb(int *p) {
    static __shared__ char cb[5];
    cb[threadIdx.x % 5] = 1;
    __syncthreads();
    p[threadIdx.x] = dev(threadIdx.x) + cb[1];
}
