// A weak template function whose sinf call brings compiler constants.
template <typename T> __device__ __noinline__ T wave(T x) {
    return x * (T)756 + (T)291 + (T)sinf((float)x);
}

__global__ void firstKernel(int *out) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    out[i] += (int)wave<double>((double)out[i]);
}
