// 03-device-printf: log.cu - a device function that calls printf.
#include <cstdio>

__device__ __noinline__ void log_value(const char *tag, int i, float v)
{
    printf("[%s] %d -> %f (%s)\n", tag, i, v, i % 2 ? "odd" : "even");
}
