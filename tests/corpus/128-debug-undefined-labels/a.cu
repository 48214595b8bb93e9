// -G, sm_100+: ptxas drops the label ($L__tmpN) where i's location list in
// .debug_loc starts -- the stack address computed there folds away before
// the inlined constructor -- and keeps the relocation against it, an
// undefined local symbol. nvlink drops the relocation (the field keeps its
// bytes) and writes no such symbol; culd refused the link.
struct Base { unsigned long long a, b, c; };
__device__ __noinline__ void base_init(Base *p) { p->a = 0; p->b = 1; }
struct Block : Base {
    __device__ __forceinline__ Block() { base_init(this); c = threadIdx.x; }
};
__global__ void __launch_bounds__(128, 1) kern(int *out)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    Block blk;
    out[i] = (int)blk.c;
}
