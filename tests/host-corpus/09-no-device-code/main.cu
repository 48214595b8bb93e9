// 09-no-device-code: main.cu - the only device code of the program.
#include <cstdio>

int host_sum(const int *v, int n);     // hostonly.cu
const char *util_name();               // util.cpp

__global__ void iota(int *p) { p[threadIdx.x] = threadIdx.x; }

int main()
{
    int *d, h[16];
    cudaMalloc(&d, sizeof(h));
    iota<<<1, 16>>>(d);
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    printf("%s %s\n", util_name(), host_sum(h, 16) == 120 ? "PASS" : "FAIL");
    return 0;
}
