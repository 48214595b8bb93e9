// -r: the static __shared__ array of an inline (template) function is a
// weak shared variable in each unit; nvlink keeps one copy and leaves the
// code's reference to it for the final link.
template <int N> __device__ __noinline__ int f_ts(int x) {
    __shared__ int s[N];
    s[threadIdx.x % N] = x;
    __syncthreads();
    return s[(threadIdx.x + 1) % N];
}
__global__ void ka(int *p) { p[threadIdx.x] = f_ts<4>(p[threadIdx.x]); }
