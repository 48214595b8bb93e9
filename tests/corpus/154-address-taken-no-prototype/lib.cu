// Two device functions; the unit takes the address of one of them.
typedef float (*fn_t)(float);

__device__ float twice(float x) { return x * 2.0f; }
__device__ float half(float x) { return x * 0.5f; }

__device__ fn_t halfPtr = half;
