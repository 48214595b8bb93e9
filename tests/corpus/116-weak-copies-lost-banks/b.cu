// The same pick() as a.cu: this copy loses to a.cu's. Up to sm_89 nvlink
// keeps its bank after the winner's in the kernels' banks.
inline __device__ __noinline__ int pick(int x) {
    float f[8];
    for (int i = 0; i < 8; ++i)
        f[i] = x * i + threadIdx.x;
    return (int)(f[x & 7] * f[(x + 3) & 7] + sinf(f[2]));
}
__global__ void k_b(int *p) { p[threadIdx.x] = pick(p[threadIdx.x]) + 2; }
