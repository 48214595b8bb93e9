// A weak copy of pick with few registers and no constant bank: it wins.
inline __device__ __noinline__ int pick(int x) { return x + 1; }
__global__ void k_small(int *p) { p[threadIdx.x] = pick(p[threadIdx.x]); }
