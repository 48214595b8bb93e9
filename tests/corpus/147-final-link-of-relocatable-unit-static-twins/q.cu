// Unit q: its own copy of the same unit-static function and table.
__device__ double scale = 2.0;
__global__ void cosine(double *v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = cos(v[i]) * scale;
}
