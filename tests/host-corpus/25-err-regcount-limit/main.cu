// A host program launching a kernel compiled under __launch_bounds__ that
// calls another unit's function using more registers: nvlink refuses the
// link. k_unused (same limit, same callee) is never launched: host-info
// dead-code elimination removes it before the check.
#include <cstdio>

__device__ int heavy(const int *p, int n);

__global__ void __launch_bounds__(1024, 1) k_used(int *out)
{
    out[threadIdx.x] = heavy(out, threadIdx.x);
}

__global__ void __maxnreg__(40) k_unused(int *out)
{
    out[threadIdx.x] = heavy(out, threadIdx.x);
}

int main()
{
    int *d = nullptr;
    cudaMalloc(&d, 1024 * sizeof(int));
    k_used<<<1, 1024>>>(d);
    cudaDeviceSynchronize();
    cudaFree(d);
    std::printf("done\n");
    return 0;
}
