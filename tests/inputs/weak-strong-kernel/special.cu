// An explicit specialization of the same kernel: a strong definition of
// k<1> (ill-formed beside implicit.cu's instantiation, yet nvlink links it).
template <int N> __global__ void k(int *p);
template <> __global__ void k<1>(int *p)
{
    p[threadIdx.x] = 7;
    __threadfence();
    p[threadIdx.x + 32] = p[threadIdx.x] * 3;
}
