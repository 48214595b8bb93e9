__constant__ float coeffs[16] = { 1.f, -1.f, 0.5f, 0.25f };
__constant__ int nsteps;

__constant__ float unrelated_table[4] = { 9.f, 8.f, 7.f, 6.f };

__global__ void uses_own_const(float *out)
{
    out[threadIdx.x] = unrelated_table[threadIdx.x & 3] * nsteps;
}
