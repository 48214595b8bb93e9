// A second kernel reaching the same template function (the array is
// reached by two kernels, so it stays a module variable).
template <int N> __device__ __noinline__ int staged(int x) {
    __shared__ int stage[N];
    stage[threadIdx.x % N] = x;
    __syncthreads();
    return stage[(threadIdx.x + 1) % N];
}

__global__ void secondUser(int *out) {
    out[threadIdx.x] += staged<64>(out[threadIdx.x]) * 2;
}
