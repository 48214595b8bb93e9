// Double-precision arithmetic in sm_100f code cannot take the fast path to
// sm_103: nvlink recompiles the kernel when linking for sm_103.
__global__ void axpy_double(double *y, const double *x, double a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}
