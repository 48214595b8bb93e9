#include <thrust/device_vector.h>
#include <thrust/transform_reduce.h>
#include <thrust/sort.h>
#include <thrust/functional.h>

__device__ __noinline__ int scramble(int x) { return (x * 7919) % 1009; }

struct Square {
    __device__ int operator()(int x) const { return x * x; }
};

int sum_of_squares(const thrust::device_vector<int> &v)
{
    thrust::device_vector<float> f(v.size());
    thrust::sort(f.begin(), f.end(), thrust::greater<float>());
    return thrust::transform_reduce(v.begin(), v.end(), Square(), 0, thrust::plus<int>());
}
