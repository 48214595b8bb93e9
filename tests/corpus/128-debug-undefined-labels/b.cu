__global__ void other(int *out) { out[threadIdx.x] += 1; }
