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
__global__ void sortK(unsigned *keys);
__global__ void reduceK2(const double *in, double *out);
int main() {
    int *i; float *f; unsigned *u; double *d;
    cudaMalloc(&i, 4096); cudaMalloc(&f, 4096); cudaMalloc(&u, 4096); cudaMalloc(&d, 4096);
    reduceK<<<1, 128>>>(i, i); scanK<<<1, 256>>>(f, f); sortK<<<1, 128>>>(u); reduceK2<<<1, 64>>>(d, d);
    return cudaDeviceSynchronize() != cudaSuccess;
}
