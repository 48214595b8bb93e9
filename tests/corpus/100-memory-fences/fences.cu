__device__ int flag;
__global__ void kfence(int *o) { o[threadIdx.x] = 1; __threadfence(); flag = 1; }
__global__ void kblock(int *o) { o[threadIdx.x] = 1; __threadfence_block(); flag = 2; }
__global__ void ksys(int *o) { o[threadIdx.x] = 1; __threadfence_system(); flag = 3; }
__global__ void kplain(int *o) { o[threadIdx.x] = 1; flag = 4; }
