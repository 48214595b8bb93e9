__device__ __noinline__ int dupe(int x) { return x * 2; }

__global__ void k_b(int *p) { p[threadIdx.x] = dupe(p[threadIdx.x]); }
