// Definitions that b-refs.cu declares differently.
__device__ int space_var = 1;            // b: __constant__
extern "C" __device__ int sized[4] = {1, 2, 3, 4}; // b: 8 elements
__managed__ int managed_var;             // b: plain __device__
__global__ void kern(int *o) { o[0] = space_var + sized[1] + managed_var; } // b: __device__
