// Calls device functions and launches a kernel of the static library.
#include <cstdio>

__device__ int op_add(int a, int b);
__device__ int op_mul(int a, int b);
__global__ void ops_fill(int *out, int v);

__global__ void compute(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = op_mul(op_add(i, 1), 3);
}

int main()
{
    const int n = 64;
    int *d = nullptr, h[n];
    if (cudaMalloc(&d, n * sizeof(int)) != cudaSuccess) {
        printf("no GPU\n");
        return 0;
    }
    ops_fill<<<1, n>>>(d, 7);
    compute<<<2, 32>>>(d, n);
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    cudaFree(d);
    int bad = 0;
    for (int i = 0; i < n; ++i)
        bad += h[i] != (i + 1) * 3;
    printf("%s\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
