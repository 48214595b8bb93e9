// libcu++'s cuda::pipeline with cuda::memcpy_async, cuda::barrier with
// arrive/wait tokens, cooperative groups' grid sync and memcpy_async,
// device printf and malloc; the staged copy kernel in the other unit.
#include <cuda/pipeline>
#include <cuda/barrier>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cstdio>

namespace cg = cooperative_groups;

__global__ void staged(const float *in, float *out, int n);

__global__ void tokens(float *data)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ float buf[256];
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0)
        init(&bar, block.size());
    block.sync();
    cg::memcpy_async(block, buf, data + blockIdx.x * 256, sizeof(buf));
    cg::wait(block);
    auto token = bar.arrive();
    bar.wait(cuda::std::move(token));
    data[blockIdx.x * 256 + threadIdx.x] = buf[255 - threadIdx.x] * 2.f;
}

__global__ void gridwide(int *counter, int *out)
{
    auto grid = cg::this_grid();
    atomicAdd(counter, 1);
    grid.sync();
    out[grid.thread_rank()] = *counter;
    if (grid.thread_rank() == 0) {
        int *scratch = static_cast<int *>(malloc(16));
        scratch[0] = *counter;
        printf("grid of %d threads saw %d\n", (int)grid.size(), scratch[0]);
        free(scratch);
    }
}

int main()
{
    float *data, *out;
    int *counter, *iout;
    cudaMalloc(&data, 1024 * sizeof(float));
    cudaMalloc(&out, 1024 * sizeof(float));
    cudaMalloc(&counter, sizeof(int));
    cudaMalloc(&iout, 1024 * sizeof(int));
    tokens<<<4, 256>>>(data);
    staged<<<4, 256>>>(data, out, 1024);
    void *args[] = {&counter, &iout};
    cudaLaunchCooperativeKernel((void *)gridwide, 4, 256, args);
    cudaDeviceSynchronize();
    return 0;
}
