// 08-cxx-mix: tmpl.h - shared declarations.
#pragma once
namespace mix {
template <typename T> __device__ T twice(T v);
struct Vec2 {
    float x, y;
    __device__ float norm2() const;
};
__device__ Vec2 operator+(Vec2 a, Vec2 b);

template <typename T> __global__ void apply_twice(T *p, int n)
{
    int i = threadIdx.x;
    if (i < n)
        p[i] = twice(p[i]);
}
} // namespace mix
extern "C" __device__ int c_clamp(int v, int lo, int hi);
extern "C" __global__ void c_kernel(int *p, int n);
