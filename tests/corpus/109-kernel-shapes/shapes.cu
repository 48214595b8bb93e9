// The kernel shapes the sm_100+ finaliser tells apart (mercury-finalizer.md):
// an early predicated exit (@P EXIT before any store), a kernel with a
// stack (a local array indexed at run time), one that calls a device
// function, one without stack or call, and a kernel whose only global load
// feeds its stores; several kernels in one file.
__device__ __noinline__ int twice(int v) { return 2 * v + 1; }

__global__ void kearly(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    out[i] = in[i] * 3;
}

__global__ void kstack(const int *in, int *out, int k) {
    int local[24];
    for (int j = 0; j < 24; ++j)
        local[j] = in[j] + j;
    out[threadIdx.x] = local[(k + threadIdx.x) % 24];
}

__global__ void kcalls(const int *in, int *out) { out[threadIdx.x] = twice(in[threadIdx.x]); }

__global__ void kplain(float *x, float a) { x[threadIdx.x] = a * x[threadIdx.x] + 1.0f; }

__global__ void kloads(const int *in, int *out, int n) {
    int s = 0;
    for (int j = threadIdx.x; j < n; j += blockDim.x)
        s += in[j];
    if (s > 0)
        out[threadIdx.x] = s;
}
