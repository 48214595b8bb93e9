__device__ int only_from_dropped(int x);
__device__ int from_kept(int x);

__global__ void keep_alpha(int *p) { p[threadIdx.x] = from_kept(p[threadIdx.x]); }
__global__ void keep_beta(int *p) { p[threadIdx.x] += 2; }
__global__ void drop_gamma(int *p) { p[threadIdx.x] = only_from_dropped(p[threadIdx.x]); }
__global__ void drop_delta(int *p)
{
    __shared__ int s[128];
    s[threadIdx.x & 127] = p[threadIdx.x];
    __syncthreads();
    p[threadIdx.x] = s[0];
}
