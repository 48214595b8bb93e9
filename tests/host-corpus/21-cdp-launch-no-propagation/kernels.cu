// A device-side launch is a function reference (.nv.callgraph group
// 0xFFFFFFFC), not a call: the parent lists the child kernel in EXTERNS but
// gets neither its registers, nor its stack size, nor what it calls (malloc).
#include <cstdio>
__device__ int sink[64];

__global__ void child(int *o)
{
    int loc[40];
    int x = o[1];
    for (int i = 0; i < 40; ++i) loc[i] = sink[(i * x) & 63];
    double a = sink[0], b = sink[1], c = sink[2], d = sink[3], e = sink[4], f = sink[5], g = sink[6], h = sink[7];
    for (int i = 0; i < x; ++i) { a = a * b + c; b = b * c + d; c = c * d + e; d = d * e + f; e = e * f + g; f = f * g + h; g = g * h + a; h = h * a + b; }
    int *p = (int *)malloc(8);
    p[0] = loc[x & 31];
    o[0] = (int)(a + b + c + d + e + f + g + h) + loc[x & 31] + p[0];
}

__global__ void parent(int *o)
{
    if (threadIdx.x == 0)
        child<<<1, 32>>>(o);
}

int main()
{
    int *o;
    cudaMalloc(&o, 64 * sizeof(int));
    parent<<<1, 32>>>(o);
    printf("%d\n", (int)cudaDeviceSynchronize());
    return 0;
}
