__device__ int mid(int x);

__global__ void top(int *out)
{
    out[threadIdx.x] = mid(threadIdx.x);
}
