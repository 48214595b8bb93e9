// 10-non-rdc-object: whole.cu - compiled with plain `nvcc -c` (no -rdc).
// Its device code is a complete, already linked module in .nv_fatbin.
__device__ __noinline__ int shared_name(int v) { return v + 7; }

__global__ void whole_kernel(int *p) { *p = shared_name(0); }

int whole_run()
{
    int *d, h = 0;
    cudaMalloc(&d, sizeof(int));
    whole_kernel<<<1, 1>>>(d);
    cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(d);
    return h;
}
