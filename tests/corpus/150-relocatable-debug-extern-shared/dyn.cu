// A -G unit whose kernel and device function use an extern __shared__
// array, linked with -r (no -g): the debug info locates the array.
__device__ int sink;
__device__ int helper(int n) {
    extern __shared__ float buf[];
    int s = 0;
    for (int j = 0; j < n; ++j) s += (int)buf[j];
    return s;
}
__global__ void k(int n) { extern __shared__ float buf[]; buf[threadIdx.x] = n; __syncthreads(); sink = helper(n); }
