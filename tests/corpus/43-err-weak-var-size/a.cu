template <int N> __device__ int tv[4];
inline __device__ int iv[4];

__global__ void ka(int *p) { p[0] = tv<1>[1] + iv[2]; }
