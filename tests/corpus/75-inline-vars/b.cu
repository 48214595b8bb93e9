// Same inline variables (different initialisers: the first file's win),
// mixed with strong data in the same sections.
__device__ int strongB;
inline __device__ int table[4];
inline __device__ int counter;
__device__ int *strongPtr = &strongB;
inline __device__ int init[4] = {9, 9, 9, 9};
inline __device__ int *cursor = &init[2];
inline __constant__ int ctab[4] = {0, 0, 0, 1};

__global__ void kb(int *p) { p[0] = counter + table[p[1]] + *cursor + *strongPtr + ctab[p[2]]; }
