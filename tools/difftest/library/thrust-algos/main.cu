// thrust::sort, thrust::reduce and thrust::inclusive_scan with a functor
// whose device function lives in the other unit.
#include <thrust/device_vector.h>
#include <thrust/sort.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/transform.h>
#include <cstdio>

__device__ int scramble(int x);

struct Scramble {
    __device__ int operator()(int x) const { return scramble(x); }
};

int sum_of_squares(const thrust::device_vector<int> &v);

int main()
{
    thrust::device_vector<int> v(1000);
    thrust::sequence(v.begin(), v.end());
    thrust::transform(v.begin(), v.end(), v.begin(), Scramble());
    thrust::sort(v.begin(), v.end());
    thrust::inclusive_scan(v.begin(), v.end(), v.begin());
    int total = thrust::reduce(v.begin(), v.end(), 0, thrust::plus<int>());
    printf("%d %d\n", total, sum_of_squares(v));
    return 0;
}
