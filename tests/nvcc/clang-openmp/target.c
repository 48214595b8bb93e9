/* An OpenMP target region: clang compiles it for nvptx64 and device-links
   the cubin through clang-nvlink-wrapper. */
#include <stdio.h>

int main(void)
{
    int x = 0;
#pragma omp target map(tofrom : x)
    {
        x = 42;
    }
    printf("%d\n", x);
    return 0;
}
