// Module shared memory aligned to 16: a template kernel's float4 array
// (weak, so ptxas files it in .nv_debug.shared).
template <int N> __global__ void staged(float4 *o)
{
    __shared__ float4 t[N];
    t[threadIdx.x % N] = o[threadIdx.x];
    __syncthreads();
    o[threadIdx.x + 1] = t[(threadIdx.x + 1) % N];
}

template __global__ void staged<2>(float4 *);
