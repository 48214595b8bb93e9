extern __shared__ float dyn[];
__device__ int dev(int i);
__global__ void kd(int *p) {
    dyn[threadIdx.x] = 1.f;
    __syncthreads();
    p[threadIdx.x] = dev(threadIdx.x) + dyn[1];
}
