// A template function's static shared array, and an extern array.
template <int N> __device__ __noinline__ int staged(int x) {
    __shared__ int stage[N];
    stage[threadIdx.x % N] = x;
    __syncthreads();
    return stage[(threadIdx.x + 1) % N];
}

extern __shared__ int dynamicInts[];

__global__ void firstUser(int *out) {
    out[threadIdx.x] += staged<64>(out[threadIdx.x]);
}

__global__ void dynamicUser(int *out) {
    dynamicInts[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = dynamicInts[threadIdx.x ^ 1];
}
