__device__ __noinline__ int bfunc(int x) { return x + 3; }
typedef int (*fp_t)(int);
__device__ fp_t fptr = bfunc;
__global__ void kern2(int *o) { o[0] = fptr(o[1]); }
