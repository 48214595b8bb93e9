__device__ int f_top1(int);
__device__ int f_top2(int);
__device__ int f_top3(int);
__device__ int l_leaf0(int);

__global__ void g_k1(int *p) { p[threadIdx.x] = f_top1(p[threadIdx.x]); }
__global__ void g_k2(int *p) { p[threadIdx.x] = f_top2(p[threadIdx.x]) + f_top3(p[0]); }
__global__ void g_k3(int *p) { p[threadIdx.x] = f_top3(p[threadIdx.x]); }
__global__ void g_k4(int *p) { p[threadIdx.x] = l_leaf0(p[threadIdx.x]); }
