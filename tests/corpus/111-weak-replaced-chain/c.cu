// The strong definition of pick.
__device__ __noinline__ int pick(int x) { return x * 1000 + (int)threadIdx.x; }
__global__ void k_c(int *p) { p[threadIdx.x] = pick(p[threadIdx.x]); }
