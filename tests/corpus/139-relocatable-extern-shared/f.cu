// A second unit: the same extern array and another one, in one kernel.
extern __shared__ float dynF[];
extern __shared__ int dynI[];

__global__ void twoArrays(float *out) {
    __shared__ float own[9];
    own[threadIdx.x % 9] = out[2];
    __syncthreads();
    dynF[threadIdx.x] = own[(threadIdx.x + 1) % 9];
    dynI[threadIdx.x + 3] = 4;
    __syncthreads();
    out[1] = dynF[7] + dynI[2];
}
