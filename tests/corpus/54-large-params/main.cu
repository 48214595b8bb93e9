struct small_blob { int v[1024]; };
struct big_blob { int v[8000]; };

__device__ int sum_first(const int *v, int n);

__global__ void k_small(small_blob b, int *out) { out[threadIdx.x] = b.v[threadIdx.x & 1023]; }
__global__ void k_big(big_blob b, int *out) { out[threadIdx.x] = sum_first(b.v, 8) + b.v[7999]; }
