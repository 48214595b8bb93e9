__device__ float combine(const float *v);

__global__ void __maxnreg__(40) limited(float *out, const float *in)
{
    out[threadIdx.x] = combine(in + threadIdx.x);
}

__global__ void unlimited(float *out, const float *in)
{
    out[threadIdx.x] = combine(in + 2 * threadIdx.x);
}
