// 12-no-host-launch: more.cu - another rdc object without host launches.
__device__ __noinline__ int twice(int x) { return 2 * x; }

__global__ void scale(int *p) { p[threadIdx.x] = twice(p[threadIdx.x]); }
