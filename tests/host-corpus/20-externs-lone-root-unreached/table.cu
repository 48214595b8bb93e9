// A function only a global pointer table names: live (its address is
// taken), reached by no kernel.
#include <cstdio>

__device__ __noinline__ int report(int x)
{
    printf("report %d\n", x);
    return x;
}
__device__ int (*table[1])(int) = {report};
