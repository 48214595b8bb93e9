typedef int (*fn2)(int, int);
typedef int (*fn3)(int, int, int);

__device__ __noinline__ int direct(int x, int y)
{
    switch (x) { case 0: return y * 3 + 2; case 1: return y * 5 + 3; case 2: return y * 7 + 4; case 3: return y * 9 + 5; case 4: return y * 11 + 6; case 5: return y * 13 + 7; case 6: return y * 15 + 8; case 7: return y * 17 + 9; case 8: return y * 19 + 10; default: return 2; }
}

__device__ __noinline__ int p1(int x, int y)
{
    switch (x) { case 0: return y * 3 + 3; case 1: return y * 6 + 4; case 2: return y * 9 + 5; case 3: return y * 12 + 6; case 4: return y * 15 + 7; case 5: return y * 18 + 8; case 6: return y * 21 + 9; case 7: return y * 24 + 10; case 8: return y * 27 + 11; case 9: return y * 30 + 12; case 10: return y * 33 + 13; default: return 3; }
}

__device__ __noinline__ int p2(int x, int y)
{
    switch (x) { case 0: return y * 3 + 5; case 1: return y * 8 + 6; case 2: return y * 13 + 7; case 3: return y * 18 + 8; case 4: return y * 23 + 9; case 5: return y * 28 + 10; default: return 5; }
}

__device__ __noinline__ int q1(int x, int y, int z)
{
    switch (x) { case 0: return z * 3 + y; case 1: return z * 10 + y; case 2: return z * 17 + y; case 3: return z * 24 + y; case 4: return z * 31 + y; case 5: return z * 38 + y; case 6: return z * 45 + y; case 7: return z * 52 + y; default: return 7; }
}

__device__ fn2 ptab[2] = { p1, p2 };
__device__ fn3 qtab[1] = { q1 };
