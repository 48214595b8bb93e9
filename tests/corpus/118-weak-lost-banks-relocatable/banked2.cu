// Another copy like banked.cu: it loses too.
inline __device__ __noinline__ int pick(int x) {
    float f[8];
    for (int i = 0; i < 8; ++i)
        f[i] = x * i + threadIdx.x;
    return (int)(f[x & 7] * f[(x + 3) & 7] + sinf(f[2]));
}
__global__ void k_banked2(int *p) { p[threadIdx.x] = pick(p[threadIdx.x]) + 2; }
