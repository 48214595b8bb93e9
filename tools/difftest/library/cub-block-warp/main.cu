// CUB block and warp collectives beyond the first set: BlockLoad/Store with
// transposes, BlockRadixSort of pairs, BlockHistogram, BlockDiscontinuity,
// BlockAdjacentDifference, BlockShuffle, WarpScan, WarpReduce, WarpMergeSort.
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_histogram.cuh>
#include <cub/block/block_discontinuity.cuh>
#include <cub/block/block_adjacent_difference.cuh>
#include <cub/block/block_shuffle.cuh>
#include <cub/warp/warp_scan.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_merge_sort.cuh>
#include <cuda_runtime.h>

constexpr int kThreads = 128, kItems = 4;

__global__ void sort_pairs(const int *keys, const float *vals, int *ko, float *vo)
{
    using Load = cub::BlockLoad<int, kThreads, kItems, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using LoadF = cub::BlockLoad<float, kThreads, kItems, cub::BLOCK_LOAD_TRANSPOSE>;
    using Sort = cub::BlockRadixSort<int, kThreads, kItems, float>;
    using Store = cub::BlockStore<int, kThreads, kItems, cub::BLOCK_STORE_WARP_TRANSPOSE>;
    __shared__ union {
        typename Load::TempStorage load;
        typename LoadF::TempStorage loadf;
        typename Sort::TempStorage sort;
        typename Store::TempStorage store;
    } tmp;
    int k[kItems];
    float v[kItems];
    int base = blockIdx.x * kThreads * kItems;
    Load(tmp.load).Load(keys + base, k);
    __syncthreads();
    LoadF(tmp.loadf).Load(vals + base, v);
    __syncthreads();
    Sort(tmp.sort).SortDescending(k, v);
    __syncthreads();
    Store(tmp.store).Store(ko + base, k);
    for (int i = 0; i < kItems; ++i)
        vo[base + threadIdx.x * kItems + i] = v[i];
}

__global__ void histogram_flags(const unsigned char *in, unsigned *hist, int *heads, int *diffs)
{
    using Hist = cub::BlockHistogram<unsigned char, kThreads, kItems, 256>;
    using Disc = cub::BlockDiscontinuity<int, kThreads>;
    using Adj = cub::BlockAdjacentDifference<int, kThreads>;
    using Shuf = cub::BlockShuffle<int, kThreads>;
    __shared__ typename Hist::TempStorage h;
    __shared__ typename Disc::TempStorage d;
    __shared__ typename Adj::TempStorage a;
    __shared__ typename Shuf::TempStorage s;
    __shared__ unsigned bins[256];
    unsigned char items[kItems];
    int vals[kItems], flags[kItems], out[kItems];
    for (int i = 0; i < kItems; ++i) {
        items[i] = in[blockIdx.x * kThreads * kItems + threadIdx.x * kItems + i];
        vals[i] = items[i] / 3;
    }
    Hist(h).Histogram(items, bins);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += kThreads)
        atomicAdd(&hist[b], bins[b]);
    Disc(d).FlagHeads(flags, vals, cuda::std::not_equal_to<>());
    Adj(a).SubtractLeft(vals, out, cuda::std::minus<>());
    int up;
    Shuf(s).Up(out, out, up);
    for (int i = 0; i < kItems; ++i) {
        heads[blockIdx.x * kThreads * kItems + threadIdx.x * kItems + i] = flags[i];
        diffs[blockIdx.x * kThreads * kItems + threadIdx.x * kItems + i] = out[i] + up;
    }
}

struct LessF {
    __device__ bool operator()(float a, float b) const { return a < b; }
};

__global__ void warp_ops(const float *in, float *out, double *sums)
{
    using Scan = cub::WarpScan<float>;
    using Red = cub::WarpReduce<double>;
    using MSort = cub::WarpMergeSort<float, 4, 32>;
    __shared__ typename Scan::TempStorage scan[kThreads / 32];
    __shared__ typename Red::TempStorage red[kThreads / 32];
    __shared__ typename MSort::TempStorage msort[kThreads / 32];
    int warp = threadIdx.x / 32;
    float x = in[blockIdx.x * kThreads + threadIdx.x], incl, excl;
    Scan(scan[warp]).Scan(x, incl, excl, cuda::std::plus<>());
    double total = Red(red[warp]).Sum(double(incl) * excl);
    float keys[4] = {x, incl, excl, x * incl};
    MSort(msort[warp]).Sort(keys, LessF());
    for (int i = 0; i < 4; ++i)
        out[(blockIdx.x * kThreads + threadIdx.x) * 4 + i] = keys[i];
    if (threadIdx.x % 32 == 0)
        sums[blockIdx.x * (kThreads / 32) + warp] = total;
}

int main()
{
    const int blocks = 8, n = blocks * kThreads * kItems;
    int *keys, *ko, *heads, *diffs;
    float *vals, *vo;
    unsigned char *bytes;
    unsigned *hist;
    double *sums;
    cudaMalloc(&keys, n * sizeof(int));
    cudaMalloc(&ko, n * sizeof(int));
    cudaMalloc(&heads, n * sizeof(int));
    cudaMalloc(&diffs, n * sizeof(int));
    cudaMalloc(&vals, n * sizeof(float));
    cudaMalloc(&vo, n * sizeof(float));
    cudaMalloc(&bytes, n);
    cudaMalloc(&hist, 256 * sizeof(unsigned));
    cudaMalloc(&sums, blocks * 4 * sizeof(double));
    sort_pairs<<<blocks, kThreads>>>(keys, vals, ko, vo);
    histogram_flags<<<blocks, kThreads>>>(bytes, hist, heads, diffs);
    warp_ops<<<blocks, kThreads>>>(vals, vo, sums);
    cudaDeviceSynchronize();
    return 0;
}
