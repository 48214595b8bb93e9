// ts<32>::s is reached by k1 only and ts<64>::s by k2 only: both move into
// their kernel's window. With no coloured variable left, nvlink writes no
// .nv_debug.shared under -g either (it would otherwise span the coloured
// variables plus the sm_90+ reservation).
template <int N> __device__ __noinline__ int ts(int x)
{
    __shared__ int s[N];
    s[threadIdx.x % N] = x;
    __syncthreads();
    return s[(threadIdx.x + 1) % N];
}

__global__ void k1(int *out) { out[threadIdx.x] = ts<32>(out[0]); }
__global__ void k2(int *out) { out[threadIdx.x] = ts<64>(out[0]); }
