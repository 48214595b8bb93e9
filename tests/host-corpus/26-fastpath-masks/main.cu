#include <cstdio>
__global__ void plain(int *o) { o[threadIdx.x] = threadIdx.x; }
void launchMath(int *o);
int main() {
    int *o = nullptr;
    cudaMalloc(&o, 64 * sizeof(int));
    plain<<<1, 32>>>(o);
    launchMath(o);
    cudaDeviceSynchronize();
    return 0;
}
