// -r: unused() is called by nothing and viaptr() only through a pointer.
// ptxas writes prototypes for called() and unused(); nvlink -r keeps both
// (culd dropped unused's, which only direct calls kept: exit 0, every
// arch). A final link removes unused() with its prototype.
__device__ __noinline__ int viaptr(int x) { return x * 3; }
__device__ __noinline__ int called(int x) { return x + 1; }
__device__ __noinline__ int unused(int x) { return x * 7; }
typedef int (*fn_t)(int);
__device__ fn_t table[1] = { viaptr };
__global__ void k(int *p) { p[0] = table[0](p[1]) + called(p[2]); }
