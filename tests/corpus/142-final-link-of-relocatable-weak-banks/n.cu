// The same template: its double instance is a copy that loses, its
// unsigned one is this unit's own.
template <typename T> __device__ __noinline__ T wave(T x) {
    return x * (T)756 + (T)291 + (T)sinf((float)x);
}

__global__ void secondKernel(int *out) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    out[i] += (int)wave<unsigned>((unsigned)out[i]);
    out[i] += (int)wave<double>((double)out[i]);
}
