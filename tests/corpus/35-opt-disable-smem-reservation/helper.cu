__device__ __noinline__ int helper(int v) { return v * 7; }
