// A static __device__ variable and dynamic shared memory in one unit: its
// -r output holds .nv.global (with the static, a local symbol) ahead of
// .nv_debug.shared, and the final link keeps that order.
static __device__ int counter;

__global__ void exchange(int *out)
{
    extern __shared__ int dyn[];
    dyn[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    counter += 1;
    out[threadIdx.x] = dyn[threadIdx.x ^ 1] + counter;
}
