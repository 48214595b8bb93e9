// -r: a module-scope __shared__ array in the first unit; nvlink 13.0 keeps
// its input value (the alignment, 4) and resolves the code with it.
__shared__ int sa[8];
__global__ void kc(int *p) { sa[threadIdx.x % 8] = p[0]; __syncthreads(); p[threadIdx.x] = sa[(threadIdx.x + 1) % 8]; }
