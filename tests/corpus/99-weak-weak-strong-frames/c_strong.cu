// The strong definition, read last, wins.
__device__ __noinline__ int pick(int x) { return x * 81 + 1; }

__global__ void kc(int *out) { out[threadIdx.x] = pick(threadIdx.x + 2); }
