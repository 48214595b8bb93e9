// The same inline variables, other initialisers: these copies lose.
inline __constant__ float cv[4] = {2.5f};
inline __constant__ int cw[3] = {1, 2, 3};
__global__ void ky(int *p) { p[threadIdx.x] = (int)cv[threadIdx.x % 4] * cw[threadIdx.x % 3]; }
