// A weak copy of pick without a frame and with fewer registers.
inline __device__ __noinline__ int pick(int x) { return x + 1; }
__global__ void k_small(int *p) { p[threadIdx.x] = pick(p[threadIdx.x]); }
