// Device-side cudaMemcpyAsync and cudaMemsetAsync (the device runtime's
// __cudaCDP2MemcpyAsync and __cudaCDP2MemsetAsync), no __constant__ data.
#include <cstdio>

__global__ void copyThenClear(int *dst, const int *src, int *scratch, int n)
{
    if (threadIdx.x == 0) {
        cudaMemcpyAsync(dst, src, n * sizeof(int), cudaMemcpyDeviceToDevice, 0);
        cudaMemsetAsync(scratch, 0, n * sizeof(int), 0);
    }
}

int main()
{
    const int n = 64;
    int *buf = nullptr;
    cudaMalloc(&buf, 3 * n * sizeof(int));
    copyThenClear<<<1, 32>>>(buf, buf + n, buf + 2 * n, n);
    int rc = (int)cudaDeviceSynchronize();
    cudaFree(buf);
    printf(rc == 0 ? "PASS\n" : "FAIL %d\n", rc);
    return rc;
}
