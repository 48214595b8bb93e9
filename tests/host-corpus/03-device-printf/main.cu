// 03-device-printf: main.cu - kernel printing directly and through log.cu.
#include <cstdio>

__device__ void log_value(const char *tag, int i, float v);

__global__ void hello(float scale)
{
    printf("hello from block %d thread %d\n", blockIdx.x, threadIdx.x);
    log_value("scaled", threadIdx.x, threadIdx.x * scale);
}

int main()
{
    hello<<<2, 4>>>(0.5f);
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", e == cudaSuccess ? "PASS" : "FAIL");
    return e != cudaSuccess;
}
