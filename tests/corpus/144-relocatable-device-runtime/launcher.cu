// A kernel launching another and using the device runtime's copies, with
// __constant__ data (.nv.ptx.const0.size is its bank's size).
__constant__ int scale[4] = {1, 2, 3, 4};
__global__ void worker(int *data, int n);

__global__ void launcher(int *data, int *copy, int n) {
    if (threadIdx.x == 0) {
        worker<<<1, 32>>>(data, n);
        cudaMemcpyAsync(copy, data, n * sizeof(int), cudaMemcpyDeviceToDevice, 0);
        cudaMemsetAsync(data, 0, n * sizeof(int), 0);
    }
    data[threadIdx.x] *= scale[threadIdx.x & 3];
}
