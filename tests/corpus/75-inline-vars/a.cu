// Inline variables defined in every file: .nv.global holds only weak data.
inline __device__ int counter;
inline __device__ int table[4];
inline __device__ int init[4] = {1, 2, 3, 4};
inline __device__ int *cursor = &init[1];
inline __constant__ int ctab[4] = {5, 6, 7, 8};

__global__ void ka(int *p) { p[0] = counter + table[p[1]] + *cursor + ctab[p[2]]; counter++; }
