// First weak (inline) copy of pick: it wins among the weak copies, and is
// later replaced by c_strong.cu's strong definition.
inline __device__ __noinline__ int pick(int x) { return x * 81 + 1; }

__global__ void ka(int *out) { out[threadIdx.x] = pick(threadIdx.x); }
