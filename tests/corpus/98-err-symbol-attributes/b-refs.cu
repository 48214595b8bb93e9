// References that disagree with a-defs.cu's definitions: nvlink reports each
// ("Memory space / Size / Managed attribute doesn't match ... first specified
// in", "Function ... not declared __global__ in all source files"), then
// "merge_elf failed" (exit 1).
extern __constant__ int space_var;
extern "C" __device__ int sized[8];
extern __device__ int managed_var;
extern __device__ void kern(int *o);

__global__ void user(int *o)
{
    o[0] = space_var + sized[7] + managed_var;
    kern(o);
}
