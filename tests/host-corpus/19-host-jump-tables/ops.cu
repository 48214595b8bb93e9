// Jump tables of device functions; which kernels reach them is decided by
// the host-reference lists (only kernels launched from the host live).
__device__ __noinline__ int only_unlaunched(int x, int y)
{
    switch (x) { case 0: return y * 3 + 3; case 1: return y * 6 + 4; case 2: return y * 9 + 5; case 3: return y * 12 + 6; case 4: return y * 15 + 7; case 5: return y * 18 + 8; case 6: return y * 21 + 9; case 7: return y * 24 + 10; case 8: return y * 27 + 11; case 9: return y * 30 + 12; default: return 3; }
}

__device__ __noinline__ int shared_sw(int x, int y)
{
    switch (x) { case 0: return y * 3 + 4; case 1: return y * 7 + 5; case 2: return y * 11 + 6; case 3: return y * 15 + 7; case 4: return y * 19 + 8; case 5: return y * 23 + 9; case 6: return y * 27 + 10; case 7: return y * 31 + 11; case 8: return y * 35 + 12; case 9: return y * 39 + 13; case 10: return y * 43 + 14; case 11: return y * 47 + 15; case 12: return y * 51 + 16; case 13: return y * 55 + 17; default: return 4; }
}

__device__ __noinline__ int launched_sw(int x, int y)
{
    switch (x) { case 0: return y * 3 + 2; case 1: return y * 5 + 3; case 2: return y * 7 + 4; case 3: return y * 9 + 5; case 4: return y * 11 + 6; case 5: return y * 13 + 7; case 6: return y * 15 + 8; case 7: return y * 17 + 9; case 8: return y * 19 + 10; default: return 2; }
}

__global__ void k_unlaunched(int *o, int x, int y) { o[0] = only_unlaunched(x, y) + shared_sw(x, y); }
