__device__ __noinline__ int g(int x) { return x * 3; }
__global__ void other(int *p) { p[0] = g(p[1]); }
