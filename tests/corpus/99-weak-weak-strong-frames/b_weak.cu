// Second weak copy: it loses to a_weak.cu's when it is read, and stays lost
// (its .debug_frame entry keeps no relocation) although the final winner is
// a later strong definition.
inline __device__ __noinline__ int pick(int x) { return x * 81 + 1; }

__global__ void kb(int *out) { out[threadIdx.x] = pick(threadIdx.x + 1); }
