// Which call-graph edges carry registers, stack size, EXTERNS, barriers,
// shared memory and device-function banks to a kernel: a direct call and an
// indirect call (to every address-taken function of the called prototype)
// do; taking a function's address (a .nv.callgraph function reference) does
// not. heavy() needs 75 registers, a 168-byte frame, malloc and a jump table.
typedef int (*fn1)(int);
__device__ fn1 slot;
__device__ int sink[64];

__device__ __noinline__ int heavy(int x)
{
    int loc[40];
    for (int i = 0; i < 40; ++i) loc[i] = sink[(i * x) & 63];
    double a = sink[0], b = sink[1], c = sink[2], d = sink[3], e = sink[4], f = sink[5], g = sink[6], h = sink[7];
    for (int i = 0; i < x; ++i) { a = a * b + c; b = b * c + d; c = c * d + e; d = d * e + f; e = e * f + g; f = f * g + h; g = g * h + a; h = h * a + b; }
    int *p = (int *)malloc(8);
    p[0] = loc[x & 31];
    int r;
    switch (x) { case 0: r = 3; break; case 1: r = 7; break; case 2: r = 11; break; case 3: r = 13; break; case 4: r = 17; break; case 5: r = 19; break; case 6: r = 23; break; case 7: r = 29; break; default: r = 0; }
    return (int)(a + b + c + d + e + f + g + h) + loc[x & 31] + p[0] + r;
}

__device__ __noinline__ void install() { slot = heavy; }

// Takes heavy's address, never calls it: nothing propagates.
__global__ void kref(int *o) { slot = heavy; o[0] = 1; }
// The same through a device function.
__global__ void kinst(int *o) { install(); o[0] = 2; }
// Calls through the prototype without naming heavy: everything propagates.
__global__ void kcall(int *o, int x) { o[0] = slot(x); }
