// Kernel calling a device function of b.cu and reading a variable of c.cu:
// after link-time optimisation bar() is inlined across files.
extern __device__ int bar(int);
extern __device__ int cval;
__global__ void kern(int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = bar(i) * cval;
}
