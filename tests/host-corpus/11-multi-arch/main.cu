// 11-multi-arch: main.cu - host code and a kernel that launches the
// archive's kernel from the device (dynamic parallelism).
#include <cstdio>

__global__ void kern_fill(int *p, int v);   // in libkern.a

__global__ void launcher(int *p)
{
    kern_fill<<<1, 32>>>(p, 3);
}

int main()
{
    int *d, h[32];
    cudaMalloc(&d, sizeof(h));
    launcher<<<1, 1>>>(d);
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    printf("%s\n", h[31] == 3 + 31 ? "PASS" : "FAIL");
    return 0;
}
