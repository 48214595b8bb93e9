// cub::DeviceRadixSort and cub::DeviceHistogram here, segmented reduce in
// the other unit.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_histogram.cuh>
#include <cuda_runtime.h>

void segmented_sums(const int *in, int *out, const int *offsets, int segments);

int main()
{
    const int n = 4096;
    int *keys, *sorted, *hist, *offsets, *sums;
    cudaMalloc(&keys, n * sizeof(int));
    cudaMalloc(&sorted, n * sizeof(int));
    cudaMalloc(&hist, 64 * sizeof(int));
    cudaMalloc(&offsets, 5 * sizeof(int));
    cudaMalloc(&sums, 4 * sizeof(int));
    void *tmp = nullptr;
    size_t bytes = 0;
    cub::DeviceRadixSort::SortKeys(tmp, bytes, keys, sorted, n);
    cudaMalloc(&tmp, bytes);
    cub::DeviceRadixSort::SortKeys(tmp, bytes, keys, sorted, n);
    size_t hbytes = 0;
    void *htmp = nullptr;
    cub::DeviceHistogram::HistogramEven(htmp, hbytes, sorted, hist, 65, 0, 4096, n);
    cudaMalloc(&htmp, hbytes);
    cub::DeviceHistogram::HistogramEven(htmp, hbytes, sorted, hist, 65, 0, 4096, n);
    segmented_sums(sorted, sums, offsets, 4);
    cudaDeviceSynchronize();
    return 0;
}
