__device__ int missing(int x);
__device__ int present(int x);

__global__ void k(int *p) { p[threadIdx.x] = missing(p[threadIdx.x]) + present(1); }
