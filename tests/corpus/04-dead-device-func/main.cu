__device__ int used_fn(int x);

__global__ void live_kernel(int *p)
{
    p[threadIdx.x] = used_fn(p[threadIdx.x]);
}
