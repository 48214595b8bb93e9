__device__ int target_arr[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
__device__ int target_scalar = 77;
__device__ __noinline__ int target_fn(int x) { return x * x; }
