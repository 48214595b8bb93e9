#include <cub/device/device_segmented_reduce.cuh>
#include <cub/device/device_radix_sort.cuh>

void segmented_sums(const int *in, int *out, const int *offsets, int segments)
{
    void *tmp = nullptr;
    size_t bytes = 0;
    cub::DeviceSegmentedReduce::Sum(tmp, bytes, in, out, segments, offsets, offsets + 1);
    cudaMalloc(&tmp, bytes);
    cub::DeviceSegmentedReduce::Sum(tmp, bytes, in, out, segments, offsets, offsets + 1);
    cub::DeviceSegmentedReduce::Max(tmp, bytes, in, out, segments, offsets, offsets + 1);
    // the same radix sort instantiation as main.cu: weak kernels in both units
    int *sorted = nullptr;
    cub::DeviceRadixSort::SortKeys(tmp, bytes, in, sorted, 16);
}
