// -lineinfo: unused() is removed as dead; on sm_100+ nvlink drops its
// line-number sequence and shortens the unit (culd kept it: exit 0). The
// inlined twice() gives the unit a .debug_str and the header field after
// the file table that points into it.
__device__ __forceinline__ int twice(int x) { return 2 * x + 1; }
__device__ __noinline__ int used(int x) { return twice(x) * 3 + 1; }
__device__ __noinline__ int unused(int x) { return x * 5 + 2; }
__global__ void k1(int *p) { p[threadIdx.x] = used(twice(p[threadIdx.x])); }
