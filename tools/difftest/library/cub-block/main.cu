#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cuda/functional>
#include <cuda_runtime.h>

__device__ float total = 0.0f;
__device__ __noinline__ float weight(int i) { return 1.0f / (1.0f + (float)i); }

template <int THREADS>
__global__ void block_sum(const int *in, int *out);

__global__ void __launch_bounds__(128) block_scan(const double *in, double *out)
{
    using Scan = cub::BlockScan<double, 128>;
    using Reduce = cub::BlockReduce<double, 128, cub::BLOCK_REDUCE_WARP_REDUCTIONS>;
    __shared__ union { typename Scan::TempStorage scan; typename Reduce::TempStorage reduce; } tmp;
    double v = in[threadIdx.x] * weight(threadIdx.x), r;
    Scan(tmp.scan).InclusiveSum(v, r);
    __syncthreads();
    double m = Reduce(tmp.reduce).Reduce(r, cuda::maximum<>{});
    if (threadIdx.x == 0)
        out[0] = m;
}

int main()
{
    int *in, *out;
    cudaMalloc(&in, 4096 * sizeof(int));
    cudaMalloc(&out, 64 * sizeof(int));
    block_sum<128><<<8, 128>>>(in, out);
    block_sum<256><<<4, 256>>>(in, out);
    cudaDeviceSynchronize();
    return 0;
}
