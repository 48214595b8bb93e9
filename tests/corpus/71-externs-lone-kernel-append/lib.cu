#include <cstdio>
__device__ __noinline__ int f(int x) { printf("%d\n", x); return x + 1; }
