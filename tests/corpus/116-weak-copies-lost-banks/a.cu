// pick() uses sinf: its constant bank (.nv.constant2._Z4picki) holds a
// coefficient. Every unit that includes it carries a weak copy.
inline __device__ __noinline__ int pick(int x) {
    float f[8];
    for (int i = 0; i < 8; ++i)
        f[i] = x * i + threadIdx.x;
    return (int)(f[x & 7] * f[(x + 3) & 7] + sinf(f[2]));
}
__global__ void k_a(int *p) { p[threadIdx.x] = pick(p[threadIdx.x]); }
