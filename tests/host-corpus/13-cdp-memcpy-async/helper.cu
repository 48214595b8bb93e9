// 13-cdp-memcpy-async: helper.cu - device functions that use the device
// runtime; the kernel launched from the device.
__constant__ int table[37];

__global__ void child(int *out, int base) { out[threadIdx.x] = base + table[threadIdx.x]; }

__device__ __noinline__ void launch_and_copy(int *out, int *src, int n)
{
    child<<<1, n>>>(out, 2);
    cudaMemcpyAsync(out, src, n * sizeof(int), cudaMemcpyDeviceToDevice, 0);
    cudaMemsetAsync(src, 0, n * sizeof(int), 0);
}

__device__ __noinline__ int last_error_or(int *p)
{
    return cudaGetLastError() == cudaSuccess ? *p : -1;
}
