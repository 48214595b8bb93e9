// -r: k calls g() (b.cu) and malloc; its EXTERNS record names both. nvlink
// -r keeps the names still undefined (malloc) and adds none that k reaches
// (free, through g's delete): the final link recomputes the list. culd
// recomputed it under -r too (a different cubin, exit 0, every arch).
extern __device__ int g(int);
__global__ void k(int *p) { p[0] = g(p[1]); int *q = (int*)malloc(8); q[0] = 1; p[2] = q[0]; }
