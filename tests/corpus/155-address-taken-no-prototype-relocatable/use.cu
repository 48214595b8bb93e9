// Picks library functions through a table of pointers; calls one directly.
typedef int (*op_t)(int);

__device__ int scale(int v);
__device__ int negate(int v);
__device__ int clampLow(int v);

__device__ op_t table[2] = {scale, negate};

__global__ void run(int *v, int which)
{
    v[threadIdx.x] = clampLow(table[which & 1](v[threadIdx.x]));
}
