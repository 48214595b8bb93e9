// cuRAND's device API (XORWOW and Philox states, normal and Poisson draws)
// and WMMA half-precision tiles; the generator kernel in the other unit.
#include <curand_kernel.h>
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__global__ void draw(curandStatePhilox4_32_10_t *states, float *out, unsigned *counts, int n);

__global__ void seed(curandState *states, unsigned long long s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    curand_init(s, i, 0, &states[i]);
}

__global__ void walk(curandState *states, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    curandState local = states[i];
    float x = 0.f;
    for (int k = 0; k < 16; ++k)
        x += curand_normal(&local) + curand_log_normal(&local, 0.f, 1.f) * 1e-3f;
    out[i] = x;
    states[i] = local;
}

using namespace nvcuda;

__global__ void tile(const half *a, const half *b, float *c)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.f);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}

int main()
{
    curandState *s;
    curandStatePhilox4_32_10_t *p;
    float *out;
    unsigned *counts;
    half *a, *b;
    cudaMalloc(&s, 256 * sizeof(*s));
    cudaMalloc(&p, 256 * sizeof(*p));
    cudaMalloc(&out, 256 * sizeof(float));
    cudaMalloc(&counts, 256 * sizeof(unsigned));
    cudaMalloc(&a, 256 * sizeof(half));
    cudaMalloc(&b, 256 * sizeof(half));
    seed<<<2, 128>>>(s, 1234);
    walk<<<2, 128>>>(s, out);
    draw<<<2, 128>>>(p, out, counts, 256);
    tile<<<1, 32>>>(a, b, out);
    cudaDeviceSynchronize();
    return 0;
}
