extern __constant__ int c_missing[8];
__global__ void k(int *p) { p[threadIdx.x] = c_missing[threadIdx.x & 7]; }
