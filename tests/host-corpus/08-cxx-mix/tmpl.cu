// 08-cxx-mix: tmpl.cu - templates explicitly instantiated here, used from main.cu.
#include "tmpl.h"

namespace mix {
template <typename T> __device__ __noinline__ T twice(T v) { return v + v; }
template __device__ int twice<int>(int);
template __device__ float twice<float>(float);
template __device__ double twice<double>(double);

__device__ __noinline__ Vec2 operator+(Vec2 a, Vec2 b) { return Vec2{a.x + b.x, a.y + b.y}; }
__device__ __noinline__ float Vec2::norm2() const { return x * x + y * y; }
} // namespace mix
