#include <curand_kernel.h>

__global__ void draw(curandStatePhilox4_32_10_t *states, float *out, unsigned *counts, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    curand_init(42, i, 0, &states[i]);
    float4 u = curand_uniform4(&states[i]);
    out[i] += u.x + u.y + u.z + u.w;
    counts[i] = curand_poisson(&states[i], 3.5);
}
