// The same template kernel (a copy that loses) and another instance, with
// a plain kernel between them.
extern __shared__ float dynT[];

template <int N> __global__ void tiled(float *out) {
    __shared__ float own[N];
    own[threadIdx.x % N] = out[1];
    __syncthreads();
    dynT[threadIdx.x] = own[1];
    __syncthreads();
    out[0] = dynT[N];
}
template __global__ void tiled<9>(float *);

__global__ void pairs(float *out) {
    __shared__ double own[2];
    own[threadIdx.x & 1] = out[3];
    __syncthreads();
    dynT[threadIdx.x] = own[1];
    __syncthreads();
    out[0] = dynT[2];
}
template __global__ void tiled<3>(float *);
