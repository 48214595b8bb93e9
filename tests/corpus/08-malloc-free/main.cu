__device__ int *make_buf(int n);
__device__ void drop_buf(int *p);

__global__ void use_heap(int *out, int n)
{
    int *buf = make_buf(n);
    if (!buf)
        return;
    for (int i = 0; i < n; ++i)
        buf[i] = i * threadIdx.x;
    out[threadIdx.x] = buf[n - 1];
    drop_buf(buf);
}
