#include <thrust/device_vector.h>
#include <thrust/sort.h>

struct ByLastDigit {
    __host__ __device__ bool operator()(int a, int b) const { return a % 10 < b % 10; }
};

void sort_in_other_unit(thrust::device_vector<int> &v)
{
    thrust::sort(v.begin(), v.end(), ByLastDigit());
}
