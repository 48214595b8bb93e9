// extern __device__ variables defined by a later link: nvlink -r writes
// them with the value -1 and keeps the code's references (R_CUDA_ABS32_LO/HI)
// for that link.
extern __device__ int gx;
extern __device__ int garr[8];
__device__ int here = 7;
__global__ void k(int *p) { p[threadIdx.x] = gx + garr[threadIdx.x & 7] + here; gx = 5; }
