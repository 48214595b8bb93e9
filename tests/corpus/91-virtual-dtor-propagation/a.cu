// Virtual functions: a kernel deleting through a base pointer calls the
// deleting destructors indirectly, so their registers and frames (they call
// free) count for it and free is in its EXTERNS. A kernel that builds objects
// on its stack only installs their vtables (function references) and calls
// f(): it gets neither the destructors' registers nor free.
struct Base {
    __device__ virtual int f(int x) { return x + 843; }
    __device__ virtual ~Base() {}
};
struct D1 : Base {
    int m;
    __device__ D1(int v) : m(v) {}
    __device__ int f(int x) override { return x * m + 724; }
};
struct D2 : Base {
    __device__ int f(int x) override { return x - 354; }
};

__global__ void __maxnreg__(168) on_heap(int *out)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    Base *b;
    if (out[i] & 1) b = new D1(i); else b = new D2();
    out[i] = b ? b->f(out[i]) : 0;
    delete b;
}

__global__ void on_stack(int *out)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    D1 d1(i);
    D2 d2;
    Base *b = (out[i] & 1) ? (Base *)&d1 : (Base *)&d2;
    out[i] = b->f(out[i]);
}
