// A module shared array that no code refers to (kt<false> does not use it,
// like a CUB kernel's unused TempStorage) is dropped: it would otherwise be
// the largest coloured variable and move the others.
template <bool Use>
__global__ void kt(int *out)
{
    __shared__ double unused_when_false[16];
    if (Use) {
        unused_when_false[threadIdx.x % 16] = out[threadIdx.x];
        __syncthreads();
        out[threadIdx.x] = (int)unused_when_false[(threadIdx.x + 1) % 16];
    } else {
        out[threadIdx.x] += 1;
    }
}
template __global__ void kt<false>(int *);
