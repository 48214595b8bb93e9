static __device__ int s_state = sizeof("b") * 10;
namespace {
__device__ __noinline__ int anon_helper(int x) { return x + s_state; }
}
static __device__ __noinline__ int local_helper(int x) { return anon_helper(x) * sizeof("b"); }

__global__ void kernel_b(int *p) { p[threadIdx.x] = local_helper(p[threadIdx.x]); }
