// A second unit referring to one of them too, and defining an unrelated one.
extern __device__ int garr[8];
__device__ int other[4];
__global__ void k2(int *p) { garr[threadIdx.x & 7] = p[threadIdx.x] + other[threadIdx.x & 3]; }
