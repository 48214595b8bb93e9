// The shared library's kernel and its host entry point.
__device__ float scale_one(float x, float s);

__global__ void scale_all(float *v, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = scale_one(v[i], s);
}

void scale(float *deviceValues, float s, int n)
{
    scale_all<<<(n + 127) / 128, 128>>>(deviceValues, s, n);
}
