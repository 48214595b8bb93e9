// Nothing here is used: a debug link (-g) keeps it all anyway.
__device__ __noinline__ int unused_fn(int x) { return x * 3; }
__global__ void never_launched(int *p) { p[0] = unused_fn(p[1]); }
