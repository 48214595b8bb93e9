#include <cstdio>
__device__ __noinline__ int used_fn(int x) { return x + 1; }
__global__ void k(int *p) { p[0] = used_fn(p[1]); }
int main() {
    int *p;
    cudaMalloc(&p, 2 * sizeof(int));
    k<<<1, 1>>>(p);
    int h = 0;
    cudaMemcpy(&h, p, sizeof h, cudaMemcpyDeviceToHost);
    std::printf("%d\n", h);
    return 0;
}
