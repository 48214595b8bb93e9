// Extern __shared__ arrays, at file scope and in a kernel: nvlink makes the
// module-shared section (.nv_debug.shared) for them, aligned 16, before it
// merges the other files' ones.
extern __shared__ double4 file_dyn[];

__global__ void k_file_extern(int *out)
{
    file_dyn[threadIdx.x].x = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = (int)file_dyn[threadIdx.x + 1].y;
}

__global__ void k_kernel_extern(int *out)
{
    extern __shared__ short kernel_dyn[];
    kernel_dyn[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = kernel_dyn[threadIdx.x + 1];
}
