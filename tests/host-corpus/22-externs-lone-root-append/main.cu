// on_heap's own EXTERNS record names malloc; the deleting destructors it
// calls through the vtable add free. The record no longer names the whole
// list, so nvlink drops it and appends {malloc, free} after MAXREG_COUNT and
// the other records instead of rewriting it in place.
struct Base {
    __device__ virtual int f(int x) { return x + 110; }
    __device__ virtual ~Base() {}
};
struct D1 : Base {
    int m;
    __device__ D1(int v) : m(v) {}
    __device__ int f(int x) override { return x * m + 660; }
};
struct D2 : Base {
    __device__ int f(int x) override { return x - 303; }
};

__global__ void on_heap(int *out)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    Base *b;
    if (out[i] & 1) b = new D1(i); else b = new D2();
    out[i] = b->f(out[i]);
    delete b;
}

int main()
{
    int *buf = nullptr;
    cudaMalloc(&buf, 4096 * sizeof(int));
    on_heap<<<1, 32>>>(buf);
    cudaDeviceSynchronize();
    cudaFree(buf);
    return 0;
}
