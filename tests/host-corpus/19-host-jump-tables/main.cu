#include <cstdio>
extern __device__ int shared_sw(int, int);
extern __device__ int launched_sw(int, int);

__global__ void k_main(int *o, int x, int y) { o[0] = launched_sw(x, y) + shared_sw(y, x); }
__global__ void k_math(double *o, double x) { o[0] = pow(x, o[1]) + erfinv(x * 0.1); }

int main()
{
    int *o;
    double *d;
    cudaMalloc(&o, 16);
    cudaMalloc(&d, 16);
    k_main<<<1, 1>>>(o, 3, 4);
    k_math<<<1, 1>>>(d, 0.5);
    cudaDeviceSynchronize();
    printf("done\n");
    return 0;
}
