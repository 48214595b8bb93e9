#include <cub/cub.cuh>
__global__ void reduceK(const int *in, int *out) {
    typedef cub::BlockReduce<int, 128> BR;
    __shared__ typename BR::TempStorage temp;
    int v = BR(temp).Sum(in[threadIdx.x]);
    if (threadIdx.x == 0) out[blockIdx.x] = v;
}
__global__ void scanK(const float *in, float *out) {
    typedef cub::BlockScan<float, 256> BS;
    __shared__ typename BS::TempStorage temp;
    float v; BS(temp).ExclusiveSum(in[threadIdx.x], v);
    out[threadIdx.x] = v;
}
