// A kernel's own static __shared__ array, laid out in its window: the extern
// array follows it there, still with no variable in .nv_debug.shared.
__global__ void kb(int *p)
{
    __shared__ int s[64];
    extern __shared__ int dyn[];
    s[threadIdx.x] = p[threadIdx.x];
    dyn[threadIdx.x] = 1;
    __syncthreads();
    p[threadIdx.x] = s[threadIdx.x ^ 1] + dyn[0];
}
