__device__ float helperA(float x) {
    __shared__ float hs[64];
    hs[threadIdx.x % 64] = x;
    __syncthreads();
    return hs[(threadIdx.x + 1) % 64];
}
__device__ int helperB(int x) {
    __shared__ int hb[33];
    __shared__ double hd[5];
    hb[threadIdx.x % 33] = x; hd[threadIdx.x%5] = x;
    __syncthreads();
    return hb[(threadIdx.x + 3) % 33] + (int)hd[1];
}
extern __device__ float ext_helper(float);
__global__ void k1(float *o) {
    __shared__ char c1[3];
    __shared__ float s1[17];
    c1[threadIdx.x%3]=1; s1[threadIdx.x % 17] = o[0];
    __syncthreads();
    o[threadIdx.x] = helperA(s1[0]) + c1[1];
}
__global__ void k2(float *o) {
    extern __shared__ float dyn[];
    __shared__ double s2[3];
    s2[threadIdx.x%3] = 1; dyn[threadIdx.x] = o[threadIdx.x];
    __syncthreads();
    o[threadIdx.x] = helperA(dyn[0]) + helperB(2) + s2[1];
}
__global__ void k3(float *o) {
    extern __shared__ float dyn[];
    dyn[threadIdx.x] = o[threadIdx.x];
    __syncthreads();
    o[threadIdx.x] = dyn[threadIdx.x+1] + ext_helper(1.0f);
}
