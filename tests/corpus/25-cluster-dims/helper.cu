__device__ __noinline__ int neighbour_value(int v)
{
    return v * 2 + 1;
}
