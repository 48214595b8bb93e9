// Three files' __constant__ arrays: 32768 bytes here, 0x10004 in all.
__constant__ int big1[8192];
__global__ void k1(int *p, int i) { p[0] = big1[i]; }
