inline __device__ __noinline__ int pick(int x) { return x + 1; }

__global__ void k_weak(int *p) { p[threadIdx.x] = pick(p[threadIdx.x]); }
