static __device__ int s_state = sizeof("c") * 10;
namespace {
__device__ __noinline__ int anon_helper(int x) { return x + s_state; }
}
static __device__ __noinline__ int local_helper(int x) { return anon_helper(x) * sizeof("c"); }

__global__ void kernel_c(int *p) { p[threadIdx.x] = local_helper(p[threadIdx.x]); }
