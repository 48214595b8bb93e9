// A second unit with its own .debug_str: nvlink moves the header field
// that points into it by the first unit's .debug_str (0 -> 0xa).
__device__ int used(int x);
__device__ __forceinline__ int thrice(int x) { return 3 * x - 1; }
__global__ void k2(int *p) { p[threadIdx.x] = used(thrice(p[threadIdx.x])) + 1; }
