// A later weak copy with more registers and a constant bank (sinf's
// coefficients, .nv.constant2._Z4picki): it loses to the first.
inline __device__ __noinline__ int pick(int x) {
    float f[8];
    for (int i = 0; i < 8; ++i)
        f[i] = x * i + threadIdx.x;
    return (int)(f[x & 7] * f[(x + 3) & 7] + sinf(f[2]));
}
__global__ void k_banked(int *p) { p[threadIdx.x] = pick(p[threadIdx.x]); }
