__device__ int keep_counter;
__device__ int drop_counter;
__device__ float keep_table[32] = { 1.f, 2.f };
__device__ float drop_table[32] = { 3.f, 4.f };
__constant__ int keep_const[4] = { 1, 2, 3, 4 };
__constant__ int drop_const[4] = { 5, 6, 7, 8 };
__device__ int drop_but_used;

__global__ void k(int *p)
{
    p[threadIdx.x] = drop_but_used + 1;
}
