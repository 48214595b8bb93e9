extern __device__ int g_missing;
extern __device__ int g_present;

__global__ void k(int *p) { p[threadIdx.x] = g_missing + g_present; }
