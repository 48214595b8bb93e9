extern __constant__ float coeffs[16];
extern __constant__ int nsteps;
__constant__ int local_bias = 3;
__constant__ float lut[8] = { 0.f, 1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f };

__global__ void poly(float *out, const float *in)
{
    int i = threadIdx.x;
    float x = in[i], acc = 0.f;
    for (int k = 0; k < nsteps && k < 16; ++k)
        acc = acc * x + coeffs[k];
    out[i] = acc + lut[i & 7] + local_bias;
}
