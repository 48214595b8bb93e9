// Thrust algorithms beyond sort: by-key reductions and scans, set
// operations, binary search, random numbers, complex arithmetic.
#include <thrust/device_vector.h>
#include <thrust/sort.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/copy.h>
#include <thrust/unique.h>
#include <thrust/set_operations.h>
#include <thrust/merge.h>
#include <thrust/binary_search.h>
#include <thrust/transform_reduce.h>
#include <thrust/count.h>
#include <thrust/sequence.h>
#include <thrust/gather.h>
#include <thrust/random.h>
#include <thrust/complex.h>
#include <thrust/iterator/counting_iterator.h>
#include <cstdio>

struct Rand {
    __host__ __device__ float operator()(unsigned i) const {
        thrust::default_random_engine rng(1234);
        thrust::uniform_real_distribution<float> dist(0.f, 1.f);
        rng.discard(i);
        return dist(rng);
    }
};
struct Square {
    __host__ __device__ double operator()(double x) const { return x * x; }
};
struct Big {
    __host__ __device__ bool operator()(float x) const { return x > 0.5f; }
};
struct Rot {
    __host__ __device__ thrust::complex<double> operator()(thrust::complex<double> z) const {
        return thrust::exp(z * thrust::complex<double>(0, 1)) / (z + 1.0);
    }
};

int main()
{
    const int n = 1 << 12;
    thrust::device_vector<float> f(n), g(n);
    thrust::transform(thrust::counting_iterator<unsigned>(0), thrust::counting_iterator<unsigned>(n),
                      f.begin(), Rand());
    thrust::device_vector<int> k(n), v(n), ko(n), vo(n);
    thrust::sequence(k.begin(), k.end());
    thrust::transform(k.begin(), k.end(), k.begin(), thrust::placeholders::_1 / 7);
    thrust::sequence(v.begin(), v.end(), 3);
    auto ends = thrust::reduce_by_key(k.begin(), k.end(), v.begin(), ko.begin(), vo.begin());
    thrust::inclusive_scan_by_key(k.begin(), k.end(), v.begin(), vo.begin());
    thrust::exclusive_scan(f.begin(), f.end(), g.begin(), 0.f);
    auto last = thrust::copy_if(f.begin(), f.end(), g.begin(), Big());
    thrust::sort_by_key(f.begin(), f.end(), v.begin(), thrust::greater<float>());
    thrust::device_vector<double> d(n);
    thrust::sequence(d.begin(), d.end(), 0.5);
    double ss = thrust::transform_reduce(d.begin(), d.end(), Square(), 0.0, thrust::plus<double>());
    thrust::device_vector<int> a(n), b(n), c(2 * n);
    thrust::sequence(a.begin(), a.end(), 0, 2);
    thrust::sequence(b.begin(), b.end(), 0, 3);
    auto ci = thrust::set_intersection(a.begin(), a.end(), b.begin(), b.end(), c.begin());
    auto cm = thrust::merge(a.begin(), a.end(), b.begin(), b.end(), c.begin());
    thrust::device_vector<int> pos(n);
    thrust::lower_bound(a.begin(), a.end(), b.begin(), b.end(), pos.begin());
    thrust::gather(pos.begin(), pos.end(), b.begin(), ko.begin());
    auto u = thrust::unique(k.begin(), k.end());
    long cnt = thrust::count_if(f.begin(), f.end(), Big());
    thrust::device_vector<thrust::complex<double>> z(n, thrust::complex<double>(0.25, 0.5));
    thrust::transform(z.begin(), z.end(), z.begin(), Rot());
    thrust::complex<double> zs = thrust::reduce(z.begin(), z.end());
    std::printf("%d %ld %d %d %ld %g %g %g\n", int(ends.first - ko.begin()), long(last - g.begin()),
                int(ci - c.begin()), int(cm - c.begin()), long(u - k.begin()) + cnt, ss, zs.real(),
                zs.imag());
    return 0;
}
