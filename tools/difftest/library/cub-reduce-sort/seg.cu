#include <cub/device/device_segmented_sort.cuh>
#include <cuda_runtime.h>

void segmented_sort(float *keys, int n, const int *offsets, int segments)
{
    float *out = nullptr;
    cudaMalloc(&out, n * sizeof(float));
    void *tmp = nullptr;
    size_t bytes = 0;
    cub::DeviceSegmentedSort::SortKeys(tmp, bytes, keys, out, n, segments, offsets, offsets + 1);
    cudaMalloc(&tmp, bytes);
    cub::DeviceSegmentedSort::SortKeys(tmp, bytes, keys, out, n, segments, offsets, offsets + 1);
}
