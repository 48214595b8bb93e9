// The launched kernel.
__global__ void worker(int *data, int n) {
    if (threadIdx.x < n)
        data[threadIdx.x] += 1;
}
