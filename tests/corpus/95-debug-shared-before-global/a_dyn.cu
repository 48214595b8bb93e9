// Only dynamic shared memory: nvlink makes .nv_debug.shared while merging
// this file, so it precedes b_globals.cu's .nv.global.
extern __shared__ float dyn[];

__global__ void k_dyn(float *out, int n) {
    dyn[threadIdx.x] = threadIdx.x * 0.5f;
    __syncthreads();
    if (threadIdx.x < n)
        out[threadIdx.x] = dyn[(threadIdx.x + 1) % blockDim.x];
}
