// 08-cxx-mix: cfuncs.cu - C linkage on the device side.
extern "C" __device__ __noinline__ int c_clamp(int v, int lo, int hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

extern "C" __global__ void c_kernel(int *p, int n)   // unmangled kernel name
{
    int i = threadIdx.x;
    if (i < n)
        p[i] = c_clamp(p[i], 0, 100);
}
