inline __device__ __noinline__ int shared_helper(int x)
{
    return (x << 2) - x;
}

static __device__ __noinline__ int private_helper(int x)
{
    return x + sizeof("b");
}

__global__ void kernel_b(int *p)
{
    p[threadIdx.x] = shared_helper(p[threadIdx.x]) + private_helper(threadIdx.x);
}
