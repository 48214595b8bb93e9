// -G, -g: only extern __shared__ arrays reach the module shared window
// (.nv_debug.shared). On sm_100+ nvlink gives it no section symbol and
// places the arrays after the reserved shared memory (0x400 + their offset);
// sm_90 names the window and keeps the plain offsets.
__global__ void ka(int *p)
{
    extern __shared__ int dyn[];
    dyn[threadIdx.x] = p[threadIdx.x];
    __syncthreads();
    p[threadIdx.x] = dyn[threadIdx.x ^ 1];
}
