// Function pointers across files: a table defined in another file, a call
// site repeated (two indirect-call records), address-taken functions with
// jump tables reached only through their prototype, and a second prototype.
typedef int (*fn2)(int, int);
typedef int (*fn3)(int, int, int);
extern __device__ fn2 ptab[2];
extern __device__ fn3 qtab[1];
extern __device__ int direct(int, int);

__global__ void kp(int *o, int x, int y)
{
    int r;
    switch (x) { case 0: r = y * 3; break; case 1: r = y * 7; break; case 2: r = y * 11; break; case 3: r = y * 13; break; case 4: r = y * 17; break; case 5: r = y * 19; break; case 6: r = y * 23; break; case 7: r = y * 29; break; case 8: r = y * 31; break; default: r = 0; }
    o[0] = r + direct(x, y) + ptab[x & 1](x, y) + ptab[(x + 1) & 1](y, x);
}

__global__ void kq(int *o, int x, int y) { o[0] = qtab[0](x, y, 1); }
__global__ void kpass(int *o, fn2 f) { o[0] = f(o[1], o[2]); }
