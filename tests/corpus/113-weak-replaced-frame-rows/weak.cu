// A weak copy of pick whose return is the 7th instruction (sm_100+).
inline __device__ __noinline__ int pick(int x) {
    return ((x * 3 + (int)threadIdx.y * 1) ^ (int)blockIdx.x * 4 + (int)threadIdx.y * 2) ^
           (int)blockIdx.x;
}
__global__ void k_weak(int *p) { p[threadIdx.x] = pick(p[threadIdx.x]); }
