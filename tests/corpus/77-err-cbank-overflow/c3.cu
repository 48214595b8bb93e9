// Three files' __constant__ arrays: 4 bytes here, 0x10004 in all.
__constant__ int big3[1];
__global__ void k3(int *p, int i) { p[0] = big3[i]; }
