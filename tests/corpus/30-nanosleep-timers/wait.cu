__device__ __noinline__ void backoff_wait(volatile int *flag)
{
    unsigned ns = 8;
    while (*flag == 0) {
        __nanosleep(ns);
        if (ns < 256)
            ns *= 2;
    }
}
