// 07-host-ref-vars: vars.cu - variables that host code refers to.
#include <cstdio>

__device__ int g_counter;                 // external, host-referenced -> .nvHRDE
__constant__ float g_coef[4];             // external, host-referenced -> .nvHRCE
static __device__ int s_hidden;           // internal, host-referenced -> .nvHRDI
static __constant__ int s_limit;          // internal, host-referenced -> .nvHRCI
__device__ int g_device_only;             // never named by host code
__managed__ int g_managed;                // managed variable

static __global__ void s_reset(int v)     // internal kernel -> .nvHRKI
{
    s_hidden = v;
    g_device_only = v;
}

void vars_init()
{
    const float coef[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    const int limit = 10, zero = 0;
    cudaMemcpyToSymbol(g_coef, coef, sizeof(coef));
    cudaMemcpyToSymbol(s_limit, &limit, sizeof(limit));
    cudaMemcpyToSymbol(s_hidden, &zero, sizeof(zero));
    cudaMemcpyToSymbol(g_counter, &zero, sizeof(zero));
    g_managed = 5;
    s_reset<<<1, 1>>>(0);
}

__device__ __noinline__ float vars_eval(float x)
{
    return g_coef[0] + x * (g_coef[1] + x * (g_coef[2] + x * g_coef[3])) + s_limit + s_hidden;
}
