// An inline device function with a function-local static __shared__ array:
// the array (_ZZ4pickiE3buf) is a weak shared variable, one per unit that
// includes the function.
inline __device__ __noinline__ int pick(int x) {
    __shared__ int buf[64];
    buf[threadIdx.x & 63] = x;
    __syncthreads();
    return buf[(threadIdx.x + 1) & 63];
}
__global__ void k_a(int *p) { p[threadIdx.x] = pick(p[threadIdx.x]); }
