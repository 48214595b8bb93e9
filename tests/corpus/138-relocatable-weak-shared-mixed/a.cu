// -r: the first copy of a weak shared variable.
template <int N> __device__ __noinline__ int f_ts(int x) {
    __shared__ int s[N];
    s[threadIdx.x % N] = x;
    __syncthreads();
    return s[(threadIdx.x + 1) % N];
}
__global__ void ka(int *p) { p[threadIdx.x] = f_ts<4>(p[threadIdx.x]); }
