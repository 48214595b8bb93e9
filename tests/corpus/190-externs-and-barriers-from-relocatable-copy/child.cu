// The launched kernel, in a unit of its own.
__global__ void child(int *out) { out[threadIdx.x] += 1; }
