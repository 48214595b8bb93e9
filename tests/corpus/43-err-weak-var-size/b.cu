template <int N> __device__ int tv[8];
inline __device__ int iv[8];

__global__ void kb(int *p) { p[0] = tv<1>[5] + iv[6]; }
