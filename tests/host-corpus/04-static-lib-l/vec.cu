// 04-static-lib-l: vec.cu - library member: vector helpers.
__device__ __noinline__ float vec_axpy(float a, float x, float y) { return a * x + y; }
__device__ __noinline__ float vec_dot3(const float *a, const float *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
