// Module shared memory aligned to 32: a template kernel's array of a
// 32-byte-aligned struct (weak, so ptxas files it in .nv_debug.shared).
struct __align__(32) Block {
    float x[8];
};

template <int N> __global__ void staged(float *o)
{
    __shared__ Block t[N];
    t[threadIdx.x % N].x[0] = o[threadIdx.x];
    __syncthreads();
    o[threadIdx.x + 1] = t[(threadIdx.x + 1) % N].x[0];
}

template __global__ void staged<1>(float *);
