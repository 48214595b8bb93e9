__device__ int fib(int n);

__global__ void fib_kernel(int *out)
{
    out[threadIdx.x] = fib(threadIdx.x % 12);
}
