// cub::DeviceFor, DeviceTransform, DeviceAdjacentDifference, DeviceCopy
// batched, DeviceRunLengthEncode non-trivial runs, DeviceFind (lower bound),
// DeviceSegmentedReduce ArgMin; a transform functor from the other unit.
#include <cub/device/device_for.cuh>
#include <cub/device/device_transform.cuh>
#include <cub/device/device_adjacent_difference.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cuda/std/tuple>

__device__ float shape(float x);

struct Shape {
    __device__ float operator()(float x) const { return shape(x); }
};
struct Bump {
    __device__ void operator()(int &x) const { x += 1; }
};

int main()
{
    const int n = 4096;
    int *a, *b, *runs, *lens, *count, *offsets;
    float *f, *g;
    cub::KeyValuePair<int, int> *amin;
    cudaMalloc(&a, n * sizeof(int));
    cudaMalloc(&b, n * sizeof(int));
    cudaMalloc(&runs, n * sizeof(int));
    cudaMalloc(&lens, n * sizeof(int));
    cudaMalloc(&count, sizeof(int));
    cudaMalloc(&offsets, 9 * sizeof(int));
    cudaMalloc(&f, n * sizeof(float));
    cudaMalloc(&g, n * sizeof(float));
    cudaMalloc(&amin, 8 * sizeof(*amin));
    void *tmp = nullptr;
    size_t bytes = 0, most = 0;
    auto grow = [&]() { if (bytes > most) { most = bytes; cudaFree(tmp); cudaMalloc(&tmp, most); } };
    cub::DeviceFor::ForEachN(a, n, Bump());
    cub::DeviceTransform::Transform(f, g, n, Shape());
    cub::DeviceAdjacentDifference::SubtractLeftCopy(nullptr, bytes, a, b, n); grow();
    cub::DeviceAdjacentDifference::SubtractLeftCopy(tmp, bytes, a, b, n);
    cub::DeviceRunLengthEncode::NonTrivialRuns(nullptr, bytes, a, runs, lens, count, n); grow();
    cub::DeviceRunLengthEncode::NonTrivialRuns(tmp, bytes, a, runs, lens, count, n);
    cub::DeviceSegmentedReduce::ArgMin(nullptr, bytes, a, amin, 8, offsets, offsets + 1); grow();
    cub::DeviceSegmentedReduce::ArgMin(tmp, bytes, a, amin, 8, offsets, offsets + 1);
    cudaDeviceSynchronize();
    return 0;
}
