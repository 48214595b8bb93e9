extern __device__ int f(int);
__global__ void k(int *p) { p[threadIdx.x] = f(p[threadIdx.x]); }
