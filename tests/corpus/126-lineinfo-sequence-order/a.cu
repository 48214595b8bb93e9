// -lineinfo: k0 calls g(), which b.cu defines after its kernels. nvlink's
// output symbol table gets g from this unit's reference, ahead of b.cu's
// kernels; on sm_100+ it orders b.cu's line sequences by that table.
extern __device__ int g(int);
__global__ void k0(int *p) { p[threadIdx.x] = g(p[threadIdx.x]); }
