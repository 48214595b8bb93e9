// -lineinfo: ptxas writes this unit's line sequences as h, k3, k2, k1, g.
// On sm_100+ nvlink writes them in its output symbol-table order -- the
// static h first among the locals, then g (a.cu referred to it first),
// then k3, k2, k1 -- where culd kept the input's order: a different
// cubin, exit 0. sm_75-sm_90 keep the input's order.
static __device__ __noinline__ int h(int x) { return x * 3 + 1; }
__global__ void k1(int *p) { p[threadIdx.x] = p[threadIdx.x] * 5; }
__global__ void k2(int *p) { p[threadIdx.x] = h(p[threadIdx.x]); }
__device__ __noinline__ int g(int x) { return x * 7 + 2; }
__global__ void k3(int *p) { p[threadIdx.x] = p[threadIdx.x] * 9; }
