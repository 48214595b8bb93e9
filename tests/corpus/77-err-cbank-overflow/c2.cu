// Three files' __constant__ arrays: 32768 bytes here, 0x10004 in all.
__constant__ int big2[8192];
__global__ void k2(int *p, int i) { p[0] = big2[i]; }
