// pickA: sinf, an 8-byte constant bank.
inline __device__ __noinline__ int pickA(int x) {
    float f[8];
    for (int i = 0; i < 8; ++i) f[i] = x * i + threadIdx.x;
    return (int)(f[x & 7] * f[(x + 3) & 7] + sinf(f[2]));
}
