#include "vars.cuh"
#include <cstdio>

__global__ void kmain(int *out);
__global__ void kother(int *out);

__global__ void kmain(int *out) { out[0] = *cursor * scale[0] + counter++ + offset<int>; }

int main() {
    int *out;
    cudaMalloc(&out, 2 * sizeof(int));
    kmain<<<1, 1>>>(out);
    kother<<<1, 1>>>(out + 1);
    int host[2] = {};
    cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
    std::printf("%d %d\n", host[0], host[1]);
    return 0;
}
