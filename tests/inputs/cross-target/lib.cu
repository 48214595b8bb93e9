// Two kernels of a library built for sm_100f (SASS and PTX): axpy_double's
// double-precision code cannot take the fast path to sm_103, scale_float's
// can. See README.md.
__global__ void axpy_double(double *y, const double *x, double a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

__global__ void scale_float(float *y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] *= a;
}

#ifndef LIB_UNLAUNCHED
void launch_axpy(double *y, const double *x, double a, int n) { axpy_double<<<(n + 127) / 128, 128>>>(y, x, a, n); }
#endif
void launch_scale(float *y, float a, int n) { scale_float<<<(n + 127) / 128, 128>>>(y, a, n); }
