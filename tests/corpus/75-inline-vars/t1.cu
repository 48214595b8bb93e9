template <class T> __device__ T zero;
template <class T> __device__ T nine = T(9);
template <class T> __device__ T *self = &nine<T>;

__global__ void kt1(int *p) { p[0] = zero<int> + nine<int> + *self<int>; zero<int> = 1; }
