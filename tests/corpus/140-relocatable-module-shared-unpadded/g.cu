// A module-scope shared array of 3 bytes (alignment 1).
__shared__ char tags[3];
__global__ void tagKernel(int *p) {
    tags[threadIdx.x % 3] = p[1];
    __syncthreads();
    p[0] = tags[2];
}
