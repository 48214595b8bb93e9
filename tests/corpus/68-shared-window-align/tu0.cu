// tools/difftest/gen.py seed 5049

inline __device__ int f1_iv = 392;
inline __device__ int f1_iarr[5] = {897, 711, 790, 125, 643};
template <typename T> inline __device__ T f1_vt = T(334);

__global__ void f1_kern0(int *out)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    out[i] = f1_iv + f1_iarr[i % 5] + (int)f1_vt<float>;
    f1_iv += f1_vt<int>;
}

__device__ float f2_sf(int v);

__global__ void __maxnreg__(255) f2_kern0(int *out)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    __shared__ int s[2048];
    s[threadIdx.x % 2048] = out[i];
    __syncthreads();
    out[i] = s[(i + 3) % 2048] + (int)f2_sf(out[i]);
}

__device__ int f6_dyn_sum(int n);

__global__ void __launch_bounds__(128) f6_kern0(int *out)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    extern __shared__ int dyn[];
    dyn[threadIdx.x] = out[i];
    __syncthreads();
    out[i] = f6_dyn_sum(threadIdx.x);
}
