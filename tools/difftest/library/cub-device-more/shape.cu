__device__ float shape(float x) { return x * x - 0.5f * sinf(x); }
