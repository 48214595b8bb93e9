__global__ void kernel(int *p) { p[threadIdx.x] = sizeof("a"); }
