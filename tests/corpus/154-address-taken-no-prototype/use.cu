// Takes the address of the other unit's `twice`, calls `half` directly and
// calls through a pointer.
typedef float (*fn_t)(float);

__device__ float twice(float x);
__device__ float half(float x);

__device__ fn_t twicePtr = twice;

__global__ void direct(float *v) { v[threadIdx.x] = half(v[threadIdx.x]); }
__global__ void apply(float *v, fn_t f) { v[threadIdx.x] = f(v[threadIdx.x]); }
