// cub::DeviceScan, DeviceSelect, DevicePartition and DeviceRunLengthEncode.
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <cub/device/device_partition.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cuda_runtime.h>

struct IsOdd {
    __host__ __device__ bool operator()(int x) const { return x & 1; }
};

int main()
{
    const int n = 1 << 14;
    int *in, *out, *flags, *count, *keys, *lengths;
    float *fin, *fout;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&out, n * sizeof(int));
    cudaMalloc(&flags, n * sizeof(int));
    cudaMalloc(&keys, n * sizeof(int));
    cudaMalloc(&lengths, n * sizeof(int));
    cudaMalloc(&count, sizeof(int));
    cudaMalloc(&fin, n * sizeof(float));
    cudaMalloc(&fout, n * sizeof(float));
    void *tmp = nullptr;
    size_t bytes = 0, most = 0;
    auto grow = [&]() { if (bytes > most) { most = bytes; cudaFree(tmp); cudaMalloc(&tmp, most); } };
    cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, n); grow();
    cub::DeviceScan::ExclusiveSum(tmp, bytes, in, out, n);
    cub::DeviceScan::InclusiveScan(nullptr, bytes, fin, fout, cuda::maximum<>(), n); grow();
    cub::DeviceScan::InclusiveScan(tmp, bytes, fin, fout, cuda::maximum<>(), n);
    cub::DeviceScan::InclusiveSumByKey(nullptr, bytes, keys, in, out, n); grow();
    cub::DeviceScan::InclusiveSumByKey(tmp, bytes, keys, in, out, n);
    cub::DeviceSelect::If(nullptr, bytes, in, out, count, n, IsOdd()); grow();
    cub::DeviceSelect::If(tmp, bytes, in, out, count, n, IsOdd());
    cub::DeviceSelect::Flagged(nullptr, bytes, in, flags, out, count, n); grow();
    cub::DeviceSelect::Flagged(tmp, bytes, in, flags, out, count, n);
    cub::DeviceSelect::Unique(nullptr, bytes, in, out, count, n); grow();
    cub::DeviceSelect::Unique(tmp, bytes, in, out, count, n);
    cub::DevicePartition::If(nullptr, bytes, in, out, count, n, IsOdd()); grow();
    cub::DevicePartition::If(tmp, bytes, in, out, count, n, IsOdd());
    cub::DeviceRunLengthEncode::Encode(nullptr, bytes, in, keys, lengths, count, n); grow();
    cub::DeviceRunLengthEncode::Encode(tmp, bytes, in, keys, lengths, count, n);
    cudaDeviceSynchronize();
    return 0;
}
