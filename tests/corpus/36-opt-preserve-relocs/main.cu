typedef int (*fn_t)(int);
extern __device__ int g_shared_var;
extern __device__ fn_t g_fn;
__device__ int callee(int x);

__global__ void k(int *p)
{
    p[threadIdx.x] = callee(p[threadIdx.x]) + g_fn(g_shared_var);
}
