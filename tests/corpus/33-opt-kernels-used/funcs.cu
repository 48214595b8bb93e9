__device__ __noinline__ int only_from_dropped(int x) { return x * 11; }
__device__ __noinline__ int from_kept(int x) { return x - 11; }
