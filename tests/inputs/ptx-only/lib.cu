__device__ __noinline__ float scale(float x, int i)
{
    return x * (float)(i & 7) + 0.5f;
}

__device__ __noinline__ int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}
