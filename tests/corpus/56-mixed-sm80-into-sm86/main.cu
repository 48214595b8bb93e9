__device__ int lib_fn(int x);
__global__ void k(int *p) { p[threadIdx.x] = lib_fn(p[threadIdx.x]); }
