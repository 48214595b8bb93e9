__device__ __noinline__ int f(int x) { int *q = (int*)malloc(8); q[0] = x; int r = q[0]; free(q); return r; }
