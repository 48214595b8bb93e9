__device__ __noinline__ int present(int x) { return x + 1; }
