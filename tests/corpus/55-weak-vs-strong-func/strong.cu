__device__ __noinline__ int pick(int x) { return x * 1000 + (int)threadIdx.x; }

__global__ void k_strong(int *p) { p[threadIdx.x] = pick(p[threadIdx.x]); }
