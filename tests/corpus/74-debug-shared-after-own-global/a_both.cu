// The first file refers to an extern __shared__ array and has a .nv.global:
// nvlink makes .nv_debug.shared after this file's sections, so after the
// .nv.global (case 95 shows the other order, a later file's .nv.global).
extern __shared__ int dyn[];
__device__ double total[2];

__global__ void k_first(int *out) {
    dyn[threadIdx.x] = threadIdx.x;
    __syncthreads();
    total[threadIdx.x & 1] += dyn[0];
    out[threadIdx.x] = dyn[(threadIdx.x + 1) % blockDim.x];
}
