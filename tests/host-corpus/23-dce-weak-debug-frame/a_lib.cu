// Never launched: host-info DCE removes kernel ka and both functions.
// pick_weak: weak here and in b_lib.cu; this copy (the first) wins, so its
// frame's address range is cleared. pick_strong: replaced by the strong
// definition in b_lib.cu, its frame's relocations now name the winner, which
// is removed too: also cleared.
inline __device__ __noinline__ int pick_weak(int x) { return x * 60 + 1; }
inline __device__ __noinline__ int pick_strong(int x) { return x * 7 - 3; }

__global__ void ka(int *out)
{
    out[threadIdx.x] = pick_weak(out[threadIdx.x]) + pick_strong(threadIdx.x);
}
