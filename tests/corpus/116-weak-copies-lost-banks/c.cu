// Another pick(), with more registers (it loses too), a larger bank, and a
// call to this unit's local slow path of sin(double): the slow path goes
// with the copy that lost (every arch), the bank stays up to sm_89.
inline __device__ __noinline__ int pick(int x) {
    float f[8];
    for (int i = 0; i < 8; ++i)
        f[i] = x * i + threadIdx.x;
    return (int)(f[x & 7] * f[(x + 3) & 7] + sin((double)f[2]) + expf(f[1]));
}
__global__ void k_c(int *p) { p[threadIdx.x] = pick(p[threadIdx.x]) + 5; }
