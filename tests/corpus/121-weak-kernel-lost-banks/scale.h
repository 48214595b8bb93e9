// scale() uses sinf: the kernel's own .nv.constant2 bank holds a coefficient.
template <typename T> __global__ void scale(T *p, T s) {
    float f[8];
    for (int i = 0; i < 8; ++i) f[i] = p[i] * s + threadIdx.x;
    p[threadIdx.x] = (T)(f[(int)s & 7] + sinf(f[2]));
}
