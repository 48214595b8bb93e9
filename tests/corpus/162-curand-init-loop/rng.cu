// One XORWOW generator per thread: the block picks the seed, the thread
// the subsequence (curand's skip-ahead loops over precomputed matrices).
#include <curand_kernel.h>

__global__ void seedGenerators(curandState *states, int salt)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    curand_init(blockIdx.x + gridDim.x * salt, threadIdx.x, 0, &states[i]);
}
