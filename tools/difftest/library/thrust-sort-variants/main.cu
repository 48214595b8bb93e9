// Thrust sorts and reorderings by other means than the radix sort: a custom
// comparator (merge sort), stable_sort_by_key on doubles, a zip of two
// keys, partition, remove_if, adjacent_difference, minmax_element,
// inner_product and transform_inclusive_scan. The other unit instantiates
// the same comparator sort: weak kernels in both units.
#include <thrust/device_vector.h>
#include <thrust/sort.h>
#include <thrust/partition.h>
#include <thrust/remove.h>
#include <thrust/adjacent_difference.h>
#include <thrust/extrema.h>
#include <thrust/inner_product.h>
#include <thrust/transform_scan.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/tuple.h>
#include <cstdio>

struct ByLastDigit {
    __host__ __device__ bool operator()(int a, int b) const { return a % 10 < b % 10; }
};
struct Odd {
    __host__ __device__ bool operator()(int x) const { return x & 1; }
};
struct Square {
    __host__ __device__ long operator()(int x) const { return (long)x * x; }
};

void sort_in_other_unit(thrust::device_vector<int> &v);

int main()
{
    const int n = 5000;
    thrust::device_vector<int> v(n), w(n);
    thrust::sequence(v.begin(), v.end(), 7, 13);
    thrust::sort(v.begin(), v.end(), ByLastDigit());
    sort_in_other_unit(v);
    thrust::device_vector<double> keys(n);
    thrust::sequence(keys.begin(), keys.end(), 3.0, -0.25);
    thrust::stable_sort_by_key(keys.begin(), keys.end(), v.begin());
    auto zip = thrust::make_zip_iterator(thrust::make_tuple(v.begin(), w.begin()));
    thrust::sort(zip, zip + n);
    auto mid = thrust::partition(v.begin(), v.end(), Odd());
    auto end = thrust::remove_if(w.begin(), w.end(), Odd());
    thrust::adjacent_difference(v.begin(), v.end(), w.begin());
    auto mm = thrust::minmax_element(w.begin(), w.end());
    long dot = thrust::inner_product(v.begin(), v.end(), w.begin(), 0L);
    thrust::device_vector<long> sq(n);
    thrust::transform_inclusive_scan(v.begin(), v.end(), sq.begin(), Square(), thrust::plus<long>());
    std::printf("%ld %ld %d %d %ld %ld\n", long(mid - v.begin()), long(end - w.begin()),
                int(*mm.first), int(*mm.second), dot, long(sq[n - 1]));
    return 0;
}
