// The strong definition of pick, one instruction longer than the weak copy.
__device__ __noinline__ int pick(int x) {
    return ((x * 3 + (int)threadIdx.y * 1) ^ (int)blockIdx.x * 4 + (int)threadIdx.y * 2) ^
           (int)blockIdx.x + 7;
}
__global__ void k_strong(int *p) { p[threadIdx.x] = pick(p[threadIdx.x]); }
