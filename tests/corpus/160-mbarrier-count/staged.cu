// A block-scope cuda::barrier in shared memory (an mbarrier): each thread
// stages one value, then reads its neighbour's.
#include <cuda/barrier>

// A barrier object in shared memory needs its init() call, not a constructor.
#pragma nv_diag_suppress static_var_with_dynamic_init

__global__ void neighbour(float *out, const float *in)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> ready;
    __shared__ float staged[256];
    if (threadIdx.x == 0)
        init(&ready, blockDim.x);
    __syncthreads();
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    staged[threadIdx.x] = in[i];
    ready.arrive_and_wait();
    out[i] = staged[(threadIdx.x + 1) % blockDim.x];
}
