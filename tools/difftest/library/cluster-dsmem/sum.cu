#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void cluster_sum(const int *in, int *out)
{
    __shared__ int partial;
    if (threadIdx.x == 0)
        partial = 0;
    __syncthreads();
    atomicAdd(&partial, in[blockIdx.x * blockDim.x + threadIdx.x]);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    cg::cluster_group cluster = cg::this_cluster();
    cluster.sync();
    if (cluster.block_rank() == 0 && threadIdx.x == 0) {
        int total = 0;
        for (unsigned r = 0; r < cluster.num_blocks(); ++r)
            total += *cluster.map_shared_rank(&partial, r);
        out[blockIdx.x / 4] = total;
    }
    cluster.sync();
#else
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = partial;
#endif
}
