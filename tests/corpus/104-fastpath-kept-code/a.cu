// Plain single-precision code: ptxas gives the unit CAN_FASTPATH_FINALIZE
// 0x9 on sm_100.
__device__ float scale(float x);

__global__ void saxpy(float *y, const float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = scale(a) * x[i] + y[i];
}
