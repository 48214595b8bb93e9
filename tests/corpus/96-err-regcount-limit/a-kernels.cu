// Kernels compiled under a register limit calling functions of other units
// that use more registers: nvlink refuses each kernel/function pair where the
// function raises the kernel's propagated register count past its limit.
__device__ int mid(const int *p, int n);
__device__ int heavy(const int *p, int n);
__device__ int heavy_twin(const int *p, int n);

typedef int (*fn_t)(const int *, int);
__device__ fn_t table[1] = {heavy};

// __launch_bounds__(1024, 1): 64 registers. Reaches heavy through mid, and
// heavy_twin (as many registers as heavy, placed before it): only
// heavy_twin is reported.
__global__ void __launch_bounds__(1024, 1) k_bounds(int *out)
{
    out[threadIdx.x] = mid(out, threadIdx.x) + heavy_twin(out, 3);
}

// __maxnreg__(40), reaching heavy through a function pointer.
__global__ void __maxnreg__(40) k_maxnreg(int *out)
{
    out[threadIdx.x] = table[out[0] & 0](out, threadIdx.x);
}

// No limit (MAXREG_COUNT 255): never reported.
__global__ void k_free(int *out)
{
    out[threadIdx.x] = heavy(out, threadIdx.x);
}
