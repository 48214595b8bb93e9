// Dense switches compile to jump tables in the function's own constant bank
// (.nv.constant2.<f>); nvlink copies each live one into the banks of the
// kernels reaching it, one offset per function.
extern __device__ int swshared(int, int);

__device__ __noinline__ int deadb(int x, int y)
{
    switch (x) { case 0: return y * 3 + 5; case 1: return y * 8 + 6; case 2: return y * 13 + 7; case 3: return y * 18 + 8; case 4: return y * 23 + 9; case 5: return y * 28 + 10; case 6: return y * 33 + 11; case 7: return y * 38 + 12; case 8: return y * 43 + 13; case 9: return y * 48 + 14; case 10: return y * 53 + 15; default: return 5; }
}

__device__ __noinline__ int swb(int x, int y)
{
    switch (x) { case 0: return y * 3 + 6; case 1: return y * 9 + 7; case 2: return y * 15 + 8; case 3: return y * 21 + 9; case 4: return y * 27 + 10; case 5: return y * 33 + 11; case 6: return y * 39 + 12; default: return 6; }
}

__device__ __noinline__ int swb2(int x, int y)
{
    switch (x) { case 0: return y * 3 + 7; case 1: return y * 10 + 8; case 2: return y * 17 + 9; case 3: return y * 24 + 10; case 4: return y * 31 + 11; case 5: return y * 38 + 12; case 6: return y * 45 + 13; case 7: return y * 52 + 14; case 8: return y * 59 + 15; case 9: return y * 66 + 16; case 10: return y * 73 + 17; case 11: return y * 80 + 18; case 12: return y * 87 + 19; case 13: return y * 94 + 20; case 14: return y * 101 + 21; case 15: return y * 108 + 22; default: return 7; }
}

static __device__ __noinline__ int local_sw(int x, int y)
{
    switch (x) { case 0: return y * 3 + 9; case 1: return y * 12 + 10; case 2: return y * 21 + 11; case 3: return y * 30 + 12; case 4: return y * 39 + 13; case 5: return y * 48 + 14; case 6: return y * 57 + 15; case 7: return y * 66 + 16; default: return 9; }
}

__global__ void kb(int *o, int x, int y) { o[1] = swb2(x, y) + swshared(x, y) + swb(x, y) + local_sw(x, y); }

// Reaches only a function whose table sits after others: a bank with a hole.
__global__ void konly(int *o, int x, int y) { o[2] = swshared(x, y); }
