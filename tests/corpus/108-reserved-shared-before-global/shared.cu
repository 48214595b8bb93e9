// A kernel with a __shared__ array and __syncthreads (sm_110 gives the unit
// .nv.shared.reserved.0 after its .nv.global) and one that writes a
// __device__ variable: nvlink merges the reserved shared memory before the
// unit's .nv.global, which decides the data segment's size.
__device__ int flag;
__global__ void kglob(int *o) { flag = o[0]; }
__global__ void ksync(int *o) {
    __shared__ int s[64];
    s[threadIdx.x] = o[threadIdx.x];
    __syncthreads();
    o[threadIdx.x] = s[63 - threadIdx.x];
}
