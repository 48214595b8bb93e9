#include <cub/cub.cuh>
__global__ void sortK(unsigned *keys) {
    typedef cub::BlockRadixSort<unsigned, 128, 4> RS;
    __shared__ typename RS::TempStorage temp;
    unsigned k[4];
    for (int i = 0; i < 4; ++i) k[i] = keys[threadIdx.x * 4 + i];
    RS(temp).Sort(k);
    for (int i = 0; i < 4; ++i) keys[threadIdx.x * 4 + i] = k[i];
}
__global__ void reduceK2(const double *in, double *out) {
    typedef cub::BlockReduce<double, 64> BR;
    __shared__ typename BR::TempStorage temp;
    double v = BR(temp).Sum(in[threadIdx.x]);
    if (threadIdx.x == 0) out[blockIdx.x] = v;
    typedef cub::BlockScan<int, 64> BS;
    __shared__ typename BS::TempStorage t2;
    int w; BS(t2).InclusiveSum((int)v, w);
    out[1] = w;
}
