// A template kernel (weak) and a plain kernel using an extern array.
extern __shared__ float dynT[];

template <int N> __global__ void tiled(float *out) {
    __shared__ float own[N];
    own[threadIdx.x % N] = out[1];
    __syncthreads();
    dynT[threadIdx.x] = own[1];
    __syncthreads();
    out[0] = dynT[N];
}
template __global__ void tiled<3>(float *);

__global__ void plain(float *out) {
    dynT[threadIdx.x] = 1;
    __syncthreads();
    out[0] = dynT[2];
}
