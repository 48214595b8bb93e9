// libcu++ atomics and barriers with explicit scopes and orders, cooperative
// groups' tiled partitions and reductions, in two units.
#include <cuda/atomic>
#include <cuda/barrier>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__device__ int tile_sum(cg::thread_block_tile<16> t, int v);

__global__ void atomics(int *counter, unsigned long long *flags, int *out, int n)
{
    cuda::atomic_ref<int, cuda::thread_scope_device> c(*counter);
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_block> f(flags[blockIdx.x]);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int ticket = c.fetch_add(1, cuda::memory_order_relaxed);
        f.fetch_or(1ull << (threadIdx.x % 64), cuda::memory_order_release);
        out[i] = ticket + int(f.load(cuda::memory_order_acquire) & 0xff);
        int expected = 0;
        c.compare_exchange_strong(expected, i, cuda::memory_order_acq_rel);
    }
}

__global__ void tiles(const int *in, int *out)
{
    auto block = cg::this_thread_block();
    auto tile = cg::tiled_partition<16>(block);
    int v = in[block.group_index().x * block.size() + block.thread_rank()];
    int s = tile_sum(tile, v);
    int incl = cg::inclusive_scan(tile, v);
    int mx = cg::reduce(tile, v, cg::greater<int>());
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    if (block.thread_rank() == 0)
        init(&bar, block.size());
    block.sync();
    bar.arrive_and_wait();
    out[block.group_index().x * block.size() + block.thread_rank()] = s + incl + mx;
}

int main()
{
    int *counter, *out, *in;
    unsigned long long *flags;
    cudaMalloc(&counter, sizeof(int));
    cudaMalloc(&flags, 64 * sizeof(unsigned long long));
    cudaMalloc(&out, 4096 * sizeof(int));
    cudaMalloc(&in, 4096 * sizeof(int));
    atomics<<<16, 256>>>(counter, flags, out, 4096);
    tiles<<<16, 256>>>(in, out);
    cudaDeviceSynchronize();
    return 0;
}
