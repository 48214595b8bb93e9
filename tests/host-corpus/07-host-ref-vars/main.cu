// 07-host-ref-vars: main.cu - host code reads variables of vars.cu.
#include <cstdio>

extern __device__ int g_counter;
extern __managed__ int g_managed;
__device__ float vars_eval(float x);
void vars_init();

__device__ float g_results[16];           // host takes its address

__global__ void eval(int n)
{
    int i = threadIdx.x;
    if (i < n) {
        g_results[i] = vars_eval(i * 0.25f);
        atomicAdd(&g_counter, 1);
        atomicAdd(&g_managed, 1);
    }
}

int main()
{
    vars_init();
    eval<<<1, 16>>>(16);
    int count = 0;
    float *res = nullptr;
    cudaMemcpyFromSymbol(&count, g_counter, sizeof(count));
    cudaGetSymbolAddress((void **)&res, g_results);
    cudaDeviceSynchronize();
    printf("%s\n", count == 16 && g_managed == 21 && res ? "PASS" : "FAIL");
    return 0;
}
