// One file with both a .nv.global and an extern __shared__ array: nvlink
// merges the module shared memory before the file's .nv.global.
extern __shared__ int scratch[];
__device__ long long counter;

__device__ __noinline__ int sumScratch(int n) {
    int s = 0;
    for (int i = 0; i < n; ++i)
        s += scratch[i];
    return s;
}

__global__ void k_both(int *out, int n) {
    __shared__ short small[3];
    scratch[threadIdx.x] = threadIdx.x;
    small[threadIdx.x % 3] = 1;
    __syncthreads();
    counter += small[0];
    out[threadIdx.x] = sumScratch(n);
}
