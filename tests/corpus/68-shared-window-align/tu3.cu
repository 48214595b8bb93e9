// tools/difftest/gen.py seed 5049

__device__ int f0_g1 = 50;
__device__ int f0_g2;
__device__ float f0_garr[53];
__constant__ int f0_c[53] = {750, 115, 572, 289, 137, 559, 103, 378};
__managed__ int f0_m = 5;

__global__ void f0_kern3(int *out)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    f0_g2 = out[i];
    out[i] += f0_c[i % 53];
    out[i] += f0_m;
    out[i] += f0_g1;
    f0_garr[i % 53] = (float)out[i];
}

__device__ __noinline__ float f2_sf(int v)
{
    __shared__ float t[32];
    t[threadIdx.x % 32] = (float)v;
    __syncthreads();
    return t[(v + 1) % 32];
}

__global__ void __launch_bounds__(256, 1) f2_kern3(int *out)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    __shared__ int s[8];
    s[threadIdx.x % 8] = out[i];
    __syncthreads();
    out[i] = s[(i + 3) % 8] + (int)f2_sf(out[i]);
}

template <typename T>
__device__ __noinline__ T f3_tw(T x)
{
    return x * (T)799 + (T)426;
}

__global__ void f3_kern3(int *out)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    out[i] += (int)f3_tw<int>((int)out[i]);
}

__device__ __noinline__ int f4_warp(int v)
{
    v += __popc(__match_any_sync(0xffffffffu, v));
    v += __shfl_down_sync(0xffffffffu, v, 1);
    return v;
}

__global__ void f4_kern(int *out)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    out[i] = f4_warp(out[i]);
}

__device__ __noinline__ int f8_warp(int v)
{
    v += __popc(__ballot_sync(0xffffffffu, v & 1));
    v += __popc(__match_any_sync(0xffffffffu, v));
    return v;
}

__global__ void __maxnreg__(128) f8_kern(int *out)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    out[i] = f8_warp(out[i]);
}
