// 06-archive-unref-kernel: used.cu - archive member that main.cu needs.
__device__ __noinline__ int used_twice(int v) { return 2 * v; }
