// C++17 inline __constant__ variables (weak) after a plain one: under -r
// nvlink leaves the code's references to the weak ones for the final link
// (culd applied them: a relocation fewer, exit 0).
__constant__ float plain[6] = {1, 2, 3};
inline __constant__ float cv[4] = {1.5f};
inline __constant__ int cw[3] = {7, 8, 9};
__global__ void kx(int *p) { p[threadIdx.x] = (int)cv[threadIdx.x % 4] + cw[threadIdx.x % 3] + (int)plain[threadIdx.x % 6]; }
