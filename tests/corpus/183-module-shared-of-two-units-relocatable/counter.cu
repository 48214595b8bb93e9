// One unit of a relocatable link (-r) whose module shared memory is one
// int: ptxas writes an 8-byte .nv_debug.shared for it.
__shared__ int counter;

__device__ __noinline__ int bump(int v)
{
    counter = v;
    __syncthreads();
    return counter + 3;
}

__global__ void count_kernel(int *out) { out[threadIdx.x] += bump(out[threadIdx.x]); }
