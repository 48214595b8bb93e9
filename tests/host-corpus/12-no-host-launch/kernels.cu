// 12-no-host-launch: kernels.cu - kernels for a program linked elsewhere;
// nothing in this link launches them from the host.
__device__ int counter;

__global__ void bump(int n) { atomicAdd(&counter, n); }

template <typename T> __global__ void fill(T *p, T v) { p[threadIdx.x] = v; }
template __global__ void fill<float>(float *, float);
template __global__ void fill<int>(int *, int);
