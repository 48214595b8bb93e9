__constant__ float c_table[4] = { 1.f, 2.f, 3.f, 4.f };
__global__ void ka(float *p) { p[threadIdx.x] = c_table[threadIdx.x & 3]; }
