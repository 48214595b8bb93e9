// cub::DeviceReduce, DeviceMergeSort, DeviceSegmentedRadixSort and
// DeviceRadixSort over pairs of 64-bit keys; segmented sort in the other unit.
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cuda_runtime.h>

void segmented_sort(float *keys, int n, const int *offsets, int segments);

struct Less {
    __host__ __device__ bool operator()(double a, double b) const { return a < b; }
};

int main()
{
    const int n = 1 << 13;
    int *in, *out, *offsets, *count;
    double *d, *dout;
    long long *k64, *k64out;
    cub::KeyValuePair<int, int> *arg;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&out, n * sizeof(int));
    cudaMalloc(&offsets, 9 * sizeof(int));
    cudaMalloc(&count, sizeof(int));
    cudaMalloc(&d, n * sizeof(double));
    cudaMalloc(&dout, n * sizeof(double));
    cudaMalloc(&k64, n * sizeof(long long));
    cudaMalloc(&k64out, n * sizeof(long long));
    cudaMalloc(&arg, sizeof(*arg));
    void *tmp = nullptr;
    size_t bytes = 0, most = 0;
    auto grow = [&]() { if (bytes > most) { most = bytes; cudaFree(tmp); cudaMalloc(&tmp, most); } };
    cub::DeviceReduce::Sum(nullptr, bytes, d, dout, n); grow();
    cub::DeviceReduce::Sum(tmp, bytes, d, dout, n);
    cub::DeviceReduce::ArgMax(nullptr, bytes, in, arg, n); grow();
    cub::DeviceReduce::ArgMax(tmp, bytes, in, arg, n);
    cub::DeviceReduce::ReduceByKey(nullptr, bytes, in, out, d, dout, count, cuda::std::plus<>(), n); grow();
    cub::DeviceReduce::ReduceByKey(tmp, bytes, in, out, d, dout, count, cuda::std::plus<>(), n);
    cub::DeviceMergeSort::SortKeys(nullptr, bytes, d, n, Less()); grow();
    cub::DeviceMergeSort::SortKeys(tmp, bytes, d, n, Less());
    cub::DeviceSegmentedRadixSort::SortKeys(nullptr, bytes, in, out, n, 8, offsets, offsets + 1); grow();
    cub::DeviceSegmentedRadixSort::SortKeys(tmp, bytes, in, out, n, 8, offsets, offsets + 1);
    cub::DeviceRadixSort::SortPairsDescending(nullptr, bytes, k64, k64out, d, dout, n); grow();
    cub::DeviceRadixSort::SortPairsDescending(tmp, bytes, k64, k64out, d, dout, n);
    segmented_sort(reinterpret_cast<float *>(d), n, offsets, 8);
    cudaDeviceSynchronize();
    return 0;
}
