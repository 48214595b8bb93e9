// 08-cxx-mix: main.cu - launches template kernels (instantiated here) that
// call templates instantiated in tmpl.cu, and the extern "C" kernel.
#include <cstdio>
#include "tmpl.h"

__global__ void vec_kernel(float *out)
{
    mix::Vec2 a{1.0f, 2.0f}, b{float(threadIdx.x), 0.5f};
    out[threadIdx.x] = (a + b).norm2() + c_clamp(threadIdx.x, 2, 5);
}

template <typename T> static void run(int n)
{
    T *d;
    cudaMalloc(&d, n * sizeof(T));
    cudaMemset(d, 0, n * sizeof(T));
    mix::apply_twice<T><<<1, n>>>(d, n);
    cudaFree(d);
}

int main()
{
    run<int>(8);
    run<float>(8);
    run<double>(8);
    int *p;
    float *f;
    cudaMalloc(&p, 8 * sizeof(int));
    cudaMalloc(&f, 8 * sizeof(float));
    c_kernel<<<1, 8>>>(p, 8);
    vec_kernel<<<1, 8>>>(f);
    printf("%s\n", cudaDeviceSynchronize() == cudaSuccess ? "PASS" : "FAIL");
    return 0;
}
