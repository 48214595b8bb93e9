// Another scale<float>, with more registers, a 32-byte bank (sin(double),
// expf) and a call to this unit's local slow path: it loses too; its bank
// follows b.cu's up to sm_89 and its slow path goes with it everywhere.
template <typename T> __global__ void scale(T *p, T s) {
    p[threadIdx.x] = p[0] * s + (T)sin((double)s) + expf(s);
}
template __global__ void scale<float>(float *, float);
__global__ void kc(float *p) { p[0] = 3; }
