// A template kernel this unit instantiates: a weak definition of k<1>.
template <int N> __global__ void k(int *p)
{
    p[threadIdx.x] = N;
    __threadfence();
    p[threadIdx.x + 32] = p[threadIdx.x] + 1;
}
template __global__ void k<1>(int *);
