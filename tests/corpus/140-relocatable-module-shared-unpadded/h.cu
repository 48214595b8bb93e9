// A module-scope shared array of doubles (alignment 8) after it.
__shared__ double sums[3];
__global__ void sumKernel(int *p) {
    sums[threadIdx.x % 3] = p[1];
    __syncthreads();
    p[0] = sums[2];
}
