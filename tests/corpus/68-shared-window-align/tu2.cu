// tools/difftest/gen.py seed 5049

inline __device__ int f1_iv = 392;
inline __device__ int f1_iarr[5] = {897, 711, 790, 125, 643};
template <typename T> inline __device__ T f1_vt = T(334);

__global__ void __maxnreg__(255) f1_kern2(int *out)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    out[i] = f1_iv + f1_iarr[i % 5] + (int)f1_vt<float>;
    f1_iv += f1_vt<int>;
}

__device__ float f2_sf(int v);

__global__ void f2_kern2(int *out)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    __shared__ int s[64];
    s[threadIdx.x % 64] = out[i];
    __syncthreads();
    out[i] = s[(i + 3) % 64] + (int)f2_sf(out[i]);
}

template <typename T>
__device__ __noinline__ T f3_tw(T x)
{
    return x * (T)799 + (T)426;
}

__global__ void f3_kern2(int *out)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    out[i] += (int)f3_tw<unsigned>((unsigned)out[i]);
    out[i] += (int)f3_tw<float>((float)out[i]);
    out[i] += (int)f3_tw<int>((int)out[i]);
}

__device__ float f5_loc(int a, int b)
{
    float loc[64];
    for (int j = 0; j < 64; ++j) loc[j] = (float)(a * j + b);
    return loc[(a ^ b) % 64] + loc[b % 64];
}

__global__ void __launch_bounds__(1024) f5_kern(int *out)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    out[i] = (int)f5_loc(out[i], i);
}

__device__ int f7_acnt;
__device__ double f7_asum;
__device__ unsigned long long f7_amax;

__global__ void f7_kern(int *out)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    __shared__ int sh;
    atomicMax(&f7_amax, (unsigned long long)out[i]);
    atomicAdd(&f7_asum, (double)out[i]);
    atomicExch(&sh, out[i]);
    atomicAdd_block(&sh, 1);
    __syncthreads();
    out[i] = sh;
}

int main()
{
    int *buf = nullptr;
    cudaMalloc(&buf, 4096 * sizeof(int));
    f1_kern2<<<1, 32, 0>>>(buf);
    f2_kern2<<<1, 32, 0>>>(buf);
    f3_kern2<<<1, 32, 0>>>(buf);
    f5_kern<<<1, 32, 0>>>(buf);
    f7_kern<<<1, 32, 0>>>(buf);
    cudaDeviceSynchronize();
    cudaFree(buf);
    return 0;
}
