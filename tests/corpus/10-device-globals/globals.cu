__device__ int counter;
__device__ int table[64];
__device__ double dscale = 2.5;
__device__ char tag[5] = "cudl";
__device__ short shorts[3] = { 1, 2, 3 };
__device__ long long big_init[4] = { 1LL << 40, 2, 3, 4 };
__device__ float zero_init_f = 0.0f;
static __device__ int file_local = 42;

__global__ void touch(int *out)
{
    int i = threadIdx.x;
    atomicAdd(&counter, 1);
    table[i & 63] += i;
    out[i] = (int)(dscale * i) + tag[i % 5] + shorts[i % 3] + (int)big_init[i & 3]
           + (int)zero_init_f + file_local;
}
