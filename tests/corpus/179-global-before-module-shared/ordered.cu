// A __device__ variable declared before a namespace-scope __shared__ array,
// and dynamic shared memory: the symbol table defines the global first, so
// nvlink keeps the file's .nv.global ahead of its .nv_debug.shared (no
// local variable involved).
__device__ int total;
__shared__ int staged[16];

__global__ void gather(int *out)
{
    extern __shared__ int dyn[];
    dyn[threadIdx.x] = 1;
    staged[threadIdx.x & 15] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = staged[(threadIdx.x + 1) & 15] + dyn[1] + total;
}
