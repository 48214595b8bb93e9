// 11-multi-arch: kern.cu - archive member with a kernel and its helper.
__device__ __noinline__ int kern_value(int v, int i) { return v + i; }

__global__ void kern_fill(int *p, int v) { p[threadIdx.x] = kern_value(v, threadIdx.x); }
