namespace ns {
__device__ int inner(int x);
template <typename T> __device__ __noinline__ T twice(T x) { return inner((int)x) * 2; }
}

typedef int (*fn_t)(int);
extern __device__ fn_t g_ptr;

__global__ void root_a(int *p) { p[threadIdx.x] = ns::twice<int>(p[threadIdx.x]); }
__global__ void root_b(float *p) { p[threadIdx.x] = ns::twice<float>(p[threadIdx.x]) + g_ptr(1); }
