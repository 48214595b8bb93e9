// Thread block clusters and distributed shared memory (sm_90 and later,
// clusters set at launch; older targets get a plain kernel): each block reads its neighbour's
// shared array through the cluster; a cluster-wide reduction in the other
// unit.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void cluster_sum(const int *in, int *out);

__global__ void neighbours(const int *in, int *out)
{
    __shared__ int mine[128];
    mine[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    cg::cluster_group cluster = cg::this_cluster();
    cluster.sync();
    unsigned other = cluster.block_rank() ^ 1;
    int *theirs = cluster.map_shared_rank(mine, other);
    out[blockIdx.x * 128 + threadIdx.x] = mine[threadIdx.x] + theirs[127 - threadIdx.x];
    cluster.sync();
#else
    __syncthreads();
    out[blockIdx.x * 128 + threadIdx.x] = mine[127 - threadIdx.x];
#endif
}

int main()
{
    int *in, *out;
    cudaMalloc(&in, 512 * sizeof(int));
    cudaMalloc(&out, 512 * sizeof(int));
    // Clusters of 2 and 4 blocks, set at launch (sm_90 and later).
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = 2;
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    cudaLaunchConfig_t config = {};
    config.gridDim = 4;
    config.blockDim = 128;
    config.attrs = &attr;
    config.numAttrs = 1;
    cudaLaunchKernelEx(&config, neighbours, (const int *)in, out);
    attr.val.clusterDim.x = 4;
    cudaLaunchKernelEx(&config, cluster_sum, (const int *)in, out);
    cudaDeviceSynchronize();
    return 0;
}
