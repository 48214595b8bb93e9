template <typename T>
__global__ void fill(T *p, T v)
{
    p[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

template __global__ void fill<float>(float *, float);
template __global__ void fill<double>(double *, double);
