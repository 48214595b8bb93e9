// 13-cdp-memcpy-async: main.cu - kernels that reach the device runtime only
// through helper.cu, launched from the host.
#include <cstdio>

__device__ void launch_and_copy(int *out, int *src, int n);
__device__ int last_error_or(int *p);

__global__ void parent(int *out, int *src, int n) { launch_and_copy(out, src, n); }
__global__ void check(int *out) { out[0] = last_error_or(out); }

int main()
{
    int *d = nullptr;
    cudaMalloc(&d, 64 * sizeof(int));
    parent<<<1, 1>>>(d, d + 32, 32);
    check<<<1, 1>>>(d);
    cudaDeviceSynchronize();
    cudaFree(d);
    std::puts("done");
    return 0;
}
