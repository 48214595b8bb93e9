// Unit p: sin() on doubles brings the math library's unit-static
// __internal_trig_reduction_slowpathd and its __cudart_i2opi_d table.
__global__ void sine(double *v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = sin(v[i]);
}
