// Kernels using extern __shared__ arrays with and without static shared
// memory of their own, one through a device function only.
extern __shared__ float dynF[];
__shared__ int moduleInts[9];

__device__ __noinline__ float scaled(int i) { return dynF[i] * 2.0f; }

__global__ void onlyExtern(float *out) {
    dynF[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = dynF[threadIdx.x ^ 1];
}

__global__ void staticAndExtern(float *out) {
    __shared__ double own[3];
    own[threadIdx.x % 3] = out[0];
    __syncthreads();
    dynF[threadIdx.x] = own[1];
    __syncthreads();
    out[threadIdx.x] = dynF[threadIdx.x ^ 1];
}

__global__ void smallStaticAndExtern(float *out) {
    __shared__ char tag[3];
    tag[threadIdx.x % 3] = 1;
    moduleInts[threadIdx.x % 9] = 2;
    __syncthreads();
    dynF[threadIdx.x] = tag[1] + moduleInts[4];
    __syncthreads();
    out[threadIdx.x] = dynF[5] + scaled(threadIdx.x);
}

__global__ void throughFunction(float *out) {
    moduleInts[threadIdx.x % 9] = 1;
    __syncthreads();
    out[threadIdx.x] = scaled(threadIdx.x) + moduleInts[1];
}
