// Kernels reaching one device function that uses the extern array share one
// offset for it (the largest static end); a kernel using it only in its own
// code keeps its own. Module shared used by two kernels overlaps with module
// shared that no common kernel reaches.
extern __shared__ float inst_dyn[];
__device__ __noinline__ float inst_use(int x) { inst_dyn[threadIdx.x] = x; __syncthreads(); return inst_dyn[x]; }
__device__ __noinline__ int inst_pair(int x) { __shared__ int A[25]; __shared__ int B[2]; A[threadIdx.x%25]=x; B[threadIdx.x%2]=x; __syncthreads(); return A[3]+B[1]; }
__device__ __noinline__ int inst_other(int x) { __shared__ int C[16]; __shared__ int E[15]; C[threadIdx.x%16]=x; E[threadIdx.x%15]=x; __syncthreads(); return C[3]+E[1]; }
__global__ void inst_k1(float *o) { __shared__ float s[5]; s[threadIdx.x%5]=o[0]; __syncthreads(); o[0] = inst_use((int)o[1]) + s[2] + inst_pair(1); }
__global__ void inst_k2(float *o) { __shared__ float t[50]; t[threadIdx.x%50]=o[0]; __syncthreads(); o[0] = inst_use((int)o[1]) + t[2] + inst_pair(2); }
__global__ void inst_k3(float *o) { __shared__ float u[10]; u[threadIdx.x%10]=o[0]; inst_dyn[threadIdx.x]=o[2]; __syncthreads(); o[0] = u[2] + inst_dyn[4] + inst_other(3); }
__global__ void inst_k4(float *o) { o[0] = inst_other(4); }
