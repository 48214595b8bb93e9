// A weak template kernel without a stack frame that calls a device
// function: replaced by small.cu's copy with fewer registers, its
// .debug_frame relocation goes on sm_90+ (culd kept it on sm_90 and
// refused on sm_100+: it went by the frame).
__device__ float helper(float x);
template <typename T> __global__ void scale(T *p, T s) { p[threadIdx.x] = helper(p[0] * s); }
template __global__ void scale<float>(float *, float);
