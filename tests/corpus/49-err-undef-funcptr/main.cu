typedef float (*fn_t)(float);
__device__ float not_there(float x);
__device__ fn_t g_fp = not_there;

__global__ void k(float *p) { p[threadIdx.x] = g_fp(p[threadIdx.x]); }
