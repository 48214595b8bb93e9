__device__ __noinline__ int lib_fn(int x) { return x * 9; }
