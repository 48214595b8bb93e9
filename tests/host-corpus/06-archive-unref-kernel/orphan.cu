// 06-archive-unref-kernel: orphan.cu - archive member nobody references:
// a kernel, a device function only it calls, and a global variable.
__device__ int orphan_counter;
__device__ __noinline__ int orphan_helper(int v) { return v ^ 0x5a; }

__global__ void orphan_kernel(int *p)
{
    p[threadIdx.x] = orphan_helper(threadIdx.x);
    atomicAdd(&orphan_counter, 1);
}
