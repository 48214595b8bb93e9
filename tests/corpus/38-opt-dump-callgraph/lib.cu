namespace ns {
__device__ __noinline__ int inner(int x) { return x + 1; }
}
__device__ __noinline__ int pointed(int x) { return ns::inner(x) - 1; }
typedef int (*fn_t)(int);
__device__ fn_t g_ptr = pointed;
