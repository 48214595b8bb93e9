// A small library of device functions (compiled on its own, as a static
// library's member would be).
__device__ int scale(int v) { return v * 7; }
__device__ int negate(int v) { return -v; }
__device__ int clampLow(int v) { return v < 0 ? 0 : v; }
