// Never launched either. This pick_weak lost to a_lib.cu's: nvlink dropped
// its .debug_frame relocations before dead-code elimination, so its frame
// keeps the original address range although the winner is removed.
inline __device__ __noinline__ int pick_weak(int x) { return x * 60 + 1; }
__device__ __noinline__ int pick_strong(int x) { return x * 7 - 3; }

__global__ void kb(int *out)
{
    out[threadIdx.x] = pick_weak(out[threadIdx.x]) - pick_strong(threadIdx.x);
}
