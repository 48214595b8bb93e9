__device__ float ext_helper(float x) {
    __shared__ short sh[7];
    __shared__ float4 f4[2];
    sh[threadIdx.x%7] = x; f4[0].x = x;
    __syncthreads();
    return sh[1] + f4[0].x;
}
__device__ int helperC(int x) {
    __shared__ long long ll[9];
    ll[threadIdx.x%9] = x;
    __syncthreads();
    return (int)ll[2];
}
__global__ void k4(int *o) {
    __shared__ int s4[100];
    extern __shared__ int dyn2[];
    s4[threadIdx.x%100] = o[0]; dyn2[threadIdx.x] = 3;
    __syncthreads();
    o[threadIdx.x] = helperC(s4[1]) + (int)ext_helper(1.0f) + dyn2[2];
}
__global__ void k5(int *o) {
    __shared__ unsigned char b5[5];
    b5[threadIdx.x%5] = 1;
    __syncthreads();
    o[threadIdx.x] = helperC(b5[1]);
}
