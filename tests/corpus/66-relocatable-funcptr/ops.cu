typedef float (*op_t)(float, float);

__device__ __noinline__ float op_add(float a, float b) { return a + b; }
__device__ __noinline__ float op_sub(float a, float b) { return a - b; }
__device__ __noinline__ float op_mul(float a, float b) { return a * b; }

__device__ op_t op_table[3] = { op_add, op_mul, op_sub };
