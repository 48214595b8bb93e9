__device__ int g_dup = 7;

__global__ void k_b(int *p) { p[threadIdx.x] = g_dup; }
