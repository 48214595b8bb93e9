__device__ int stage_a(int v);
__device__ int stage_b(int v);

__global__ void kA(int *p) { p[threadIdx.x] = stage_a(p[threadIdx.x]); }
__global__ void kB(int *p) { p[threadIdx.x] = stage_b(p[threadIdx.x]); }
