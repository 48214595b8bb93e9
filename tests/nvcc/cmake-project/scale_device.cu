// A device function the shared library's kernel calls from another file.
__device__ __noinline__ float scale_one(float x, float s) { return x * s; }
