__device__ int cval = 5;
__device__ int unused_function(int x) { return x - cval; } // dropped by LTO
__global__ void third(int *p) { p[0] = cval; }
