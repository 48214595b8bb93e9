// cub::BlockReduce and cub::WarpReduce inside user kernels, with a cross-unit
// device function and a __device__ accumulator.
#include <cub/block/block_reduce.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cuda/functional>

__device__ float weight(int i);
extern __device__ float total;

template <int THREADS>
__global__ void __launch_bounds__(THREADS) block_sum(const int *in, int *out)
{
    using Reduce = cub::BlockReduce<int, THREADS>;
    __shared__ typename Reduce::TempStorage tmp;
    int v = in[blockIdx.x * THREADS + threadIdx.x];
    int s = Reduce(tmp).Sum(v);
    if (threadIdx.x == 0) {
        out[blockIdx.x] = s;
        atomicAdd(&total, weight(s));
    }
}

__global__ void warp_max(const float *in, float *out)
{
    using Warp = cub::WarpReduce<float>;
    __shared__ typename Warp::TempStorage tmp[4];
    float v = in[threadIdx.x] * weight(threadIdx.x);
    float m = Warp(tmp[threadIdx.x / 32]).Reduce(v, cuda::maximum<>{});
    if (threadIdx.x % 32 == 0)
        out[threadIdx.x / 32] = m;
}

template __global__ void block_sum<128>(const int *, int *);
template __global__ void block_sum<256>(const int *, int *);
