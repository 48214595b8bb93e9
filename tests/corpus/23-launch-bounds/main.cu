__device__ float work(float x);

__global__ void __launch_bounds__(256, 4) bounded(float *out, const float *in)
{
    out[threadIdx.x] = work(in[threadIdx.x]);
}

__global__ void __launch_bounds__(1024) wide(float *out)
{
    out[threadIdx.x] = work((float)threadIdx.x);
}

__global__ void __launch_bounds__(64, 2) narrow(float *out)
{
    out[threadIdx.x] = 1.0f;
}

struct cfg { float scale[16]; int n; };

__global__ void __launch_bounds__(128) gridconst(const __grid_constant__ cfg c, float *out)
{
    out[threadIdx.x] = work(c.scale[threadIdx.x & 15] * c.n);
}
