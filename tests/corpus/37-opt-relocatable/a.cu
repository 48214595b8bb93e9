__device__ int b_fn(int x);
__device__ int ext_fn(int x);
extern __device__ int b_var;

__global__ void ka(int *p) { p[threadIdx.x] = b_fn(p[threadIdx.x]) + ext_fn(b_var); }
