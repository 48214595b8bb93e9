// Launches both kernels of lib.cu.
void launch_axpy(double *y, const double *x, double a, int n);
void launch_scale(float *y, float a, int n);
__global__ void fill(float *y, int n) { if (threadIdx.x < n) y[threadIdx.x] = 1.0f; }
int main() {
    launch_axpy(nullptr, nullptr, 2.0, 0);
    launch_scale(nullptr, 2.0f, 0);
    fill<<<1, 32>>>(nullptr, 0);
    return 0;
}
