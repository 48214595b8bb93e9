// 02-dynamic-parallelism: child.cu - the kernel launched from the device,
// which itself launches a grandchild with a tail launch.
__global__ void grandchild(int *flag) { *flag = 1; }

__global__ void child(int *out, int base)
{
    out[threadIdx.x] = base + threadIdx.x;
}

__global__ void child_tail(int *flag)
{
    grandchild<<<1, 1, 0, cudaStreamTailLaunch>>>(flag);
}
