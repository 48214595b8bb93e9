// Kernels no host code launches (host-info dead-code elimination removes
// them): the link has one root kernel.
__global__ void uses_heap(int *out)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int *m = (int *)malloc(13 * sizeof(int));
    if (m) { m[0] = i; out[i] = m[0]; free(m); }
}

__device__ __noinline__ int scale(int x) { return x * 75; }

__global__ void __maxnreg__(168) uses_scale(int *out)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    out[i] = scale(out[i]);
}
