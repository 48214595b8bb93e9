typedef int (*fn_t)(int);
__device__ __noinline__ int callee(int x) { return x + 100; }
__device__ __noinline__ int other(int x) { return x - 100; }
__device__ int g_shared_var = 5;
__device__ fn_t g_fn = other;
