// 02-dynamic-parallelism: parent.cu - a kernel that launches another kernel
// (defined in child.cu) from the device.  Needs the device runtime
// (libcudadevrt, which nvcc always passes to nvlink as -lcudadevrt).
#include <cstdio>

__global__ void child(int *out, int base);

__global__ void parent(int *out, int n)
{
    if (threadIdx.x == 0) {
        child<<<1, n>>>(out, 100 * blockIdx.x);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess)
            out[0] = -1;
    }
}

int main()
{
    const int n = 32;
    int *d = nullptr, h[n];
    cudaMalloc(&d, n * sizeof(int));
    parent<<<1, 1>>>(d, n);
    cudaDeviceSynchronize();
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    cudaFree(d);
    int bad = 0;
    for (int i = 0; i < n; ++i)
        bad += h[i] != i;
    printf("%s\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
