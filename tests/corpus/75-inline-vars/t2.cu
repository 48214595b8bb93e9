template <class T> __device__ T zero;
template <class T> __device__ T nine = T(9);
template <class T> __device__ T *self = &nine<T>;

__global__ void kt2(long *p) { p[0] = zero<int> + zero<long> + *self<int> + nine<long>; }
