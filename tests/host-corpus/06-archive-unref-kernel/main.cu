// 06-archive-unref-kernel: main.cu - references only used.cu's function.
#include <cstdio>

__device__ int used_twice(int v);

__global__ void kern(int *p) { p[threadIdx.x] = used_twice(threadIdx.x); }

int main()
{
    int *d, h[8];
    cudaMalloc(&d, sizeof(h));
    kern<<<1, 8>>>(d);
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    printf("%s\n", h[7] == 14 ? "PASS" : "FAIL");
    return 0;
}
