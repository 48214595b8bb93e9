// Only weak data that lost to earlier definitions: its .nv.global is not
// merged, the relocation inside its `cursor` copy is dropped.
inline __device__ int counter;
inline __device__ int init[4] = {1, 2, 3, 4};
inline __device__ int *cursor = &init[1];

__global__ void kc(int *p) { p[0] = counter + *cursor; }
