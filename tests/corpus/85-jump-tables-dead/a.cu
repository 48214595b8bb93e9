// Dense switches compile to jump tables in the function's own constant bank
// (.nv.constant2.<f>); nvlink copies each live one into the banks of the
// kernels reaching it, one offset per function.
extern __device__ int swb(int, int);

__device__ __noinline__ int swa(int x, int y)
{
    switch (x) { case 0: return y * 3 + 2; case 1: return y * 5 + 3; case 2: return y * 7 + 4; case 3: return y * 9 + 5; case 4: return y * 11 + 6; case 5: return y * 13 + 7; case 6: return y * 15 + 8; case 7: return y * 17 + 9; case 8: return y * 19 + 10; default: return 2; }
}

__device__ __noinline__ int deada(int x, int y)
{
    switch (x) { case 0: return y * 3 + 3; case 1: return y * 6 + 4; case 2: return y * 9 + 5; case 3: return y * 12 + 6; case 4: return y * 15 + 7; case 5: return y * 18 + 8; case 6: return y * 21 + 9; case 7: return y * 24 + 10; case 8: return y * 27 + 11; case 9: return y * 30 + 12; default: return 3; }
}

__device__ __noinline__ int swshared(int x, int y)
{
    switch (x) { case 0: return y * 3 + 4; case 1: return y * 7 + 5; case 2: return y * 11 + 6; case 3: return y * 15 + 7; case 4: return y * 19 + 8; case 5: return y * 23 + 9; case 6: return y * 27 + 10; case 7: return y * 31 + 11; case 8: return y * 35 + 12; case 9: return y * 39 + 13; case 10: return y * 43 + 14; case 11: return y * 47 + 15; case 12: return y * 51 + 16; case 13: return y * 55 + 17; default: return 4; }
}

__device__ __noinline__ int orphan(int x, int y)
{
    switch (x) { case 0: return y * 3 + 8; case 1: return y * 11 + 9; case 2: return y * 19 + 10; case 3: return y * 27 + 11; case 4: return y * 35 + 12; case 5: return y * 43 + 13; case 6: return y * 51 + 14; case 7: return y * 59 + 15; case 8: return y * 67 + 16; case 9: return y * 75 + 17; case 10: return y * 83 + 18; case 11: return y * 91 + 19; default: return 8; }
}

// Address taken, never called through its prototype: its table is in no bank.
typedef int (*pair_fn)(int, int);
__device__ pair_fn keep_orphan = orphan;

__global__ void ka(int *o, int x, int y) { o[0] = swa(x, y) + swb(x, y) + swshared(x, y); }

// A kernel with a table of its own calling a function defined in another file.
extern __device__ int swb2(int, int);
__global__ void kown(int *o, int x, int y)
{
    int r;
    switch (x) { case 0: r = y * 1; break; case 1: r = y * 10; break; case 2: r = y * 19; break; case 3: r = y * 28; break; case 4: r = y * 37; break; case 5: r = y * 46; break; case 6: r = y * 55; break; case 7: r = y * 64; break; case 8: r = y * 73; break; case 9: r = y * 82; break; default: r = 0; }
    o[0] = r + swb2(x, y);
}
