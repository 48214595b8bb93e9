#include <cuda/pipeline>

__global__ void staged(const float *in, float *out, int n)
{
    __shared__ float tile[2][256];
    auto pipe = cuda::make_pipeline();
    int base = blockIdx.x * 256;
    for (int stage = 0; stage < 2; ++stage) {
        pipe.producer_acquire();
        cuda::memcpy_async(&tile[stage][threadIdx.x], &in[(base + stage * 128 + threadIdx.x) % n],
                           sizeof(float), pipe);
        pipe.producer_commit();
    }
    for (int stage = 0; stage < 2; ++stage) {
        cuda::pipeline_consumer_wait_prior<1>(pipe);
        out[(base + threadIdx.x) % n] += tile[stage][threadIdx.x];
        pipe.consumer_release();
    }
}
