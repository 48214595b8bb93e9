__device__ __noinline__ int warp_reduce(int v)
{
    unsigned s = __reduce_add_sync(0xffffffffu, (unsigned)v);
    int mn = __reduce_min_sync(0xffffffffu, v);
    unsigned o = __reduce_or_sync(0xffffffffu, (unsigned)v);
    return (int)s + mn + (int)o;
}
