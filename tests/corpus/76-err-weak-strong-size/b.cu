// ... and a weak (inline) one of another size.
inline __device__ int iv[8];
__global__ void kb(int *p) { p[0] = iv[p[1]]; }
