// A template using sinf: each instance has an 8-byte constant bank.
template <typename T>
__device__ __noinline__ T tw(T x)
{
    return x * (T)849 + (T)548 + (T)sinf((float)x);
}
