__device__ int g_dup = 7;

__global__ void k_a(int *p) { p[threadIdx.x] = g_dup; }
