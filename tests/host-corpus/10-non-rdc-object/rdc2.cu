// 10-non-rdc-object: rdc2.cu - rdc object.
__device__ __noinline__ int shared_name(int v) { return v + 100; }
