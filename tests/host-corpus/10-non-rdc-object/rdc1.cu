// 10-non-rdc-object: rdc1.cu - rdc object with main() and a kernel calling rdc2.cu.
#include <cstdio>

__device__ int shared_name(int v);     // defined in rdc2.cu (and, separately, in whole.cu)
int whole_run();                       // host function of whole.cu

__global__ void k1(int *p) { p[threadIdx.x] = shared_name(threadIdx.x); }

int main()
{
    int *d, h[4];
    cudaMalloc(&d, sizeof(h));
    k1<<<1, 4>>>(d);
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    printf("%s\n", h[3] == 103 && whole_run() == 7 ? "PASS" : "FAIL");
    return 0;
}
