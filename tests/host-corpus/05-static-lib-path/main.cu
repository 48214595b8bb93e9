// 05-static-lib-path: main.cu - uses device functions from libdevops.a
// (vec.cu + red.cu, archived with nvcc -lib).
#include <cstdio>

__device__ float vec_axpy(float a, float x, float y);
__device__ float red_warp_sum(float v);

__global__ void kern(const float *x, float *y, float *sum)
{
    float v = vec_axpy(2.0f, x[threadIdx.x], y[threadIdx.x]);
    y[threadIdx.x] = v;
    float s = red_warp_sum(v);
    if (threadIdx.x == 0)
        *sum = s;
}

int main()
{
    float hx[32], hy[32], hs = 0, *x, *y, *s;
    for (int i = 0; i < 32; ++i) { hx[i] = 1.0f; hy[i] = i; }
    cudaMalloc(&x, sizeof(hx)); cudaMalloc(&y, sizeof(hy)); cudaMalloc(&s, sizeof(float));
    cudaMemcpy(x, hx, sizeof(hx), cudaMemcpyHostToDevice);
    cudaMemcpy(y, hy, sizeof(hy), cudaMemcpyHostToDevice);
    kern<<<1, 32>>>(x, y, s);
    cudaMemcpy(&hs, s, sizeof(float), cudaMemcpyDeviceToHost);
    printf("%s\n", hs == 32 * 2.0f + 31 * 32 / 2 ? "PASS" : "FAIL");
    return 0;
}
