// Kernel vl1015_0 of gen-variable-latency.py (seed 1015).
#include <cuda_fp16.h>
#include <cuda_pipeline.h>
extern "C" __global__ void vl1015_0(int *p, float *f, double *d, cudaTextureObject_t t, int n) { __shared__ int s[64]; int i = threadIdx.x + 0; int acc = s[(i + 14) & 63]; s[i & 63] = i; __syncthreads(); for (int k = 0; k < n; ++k) { d[i + 6] = (double)acc * 0.5; } for (int k = 0; k < n; ++k) { if (s[(i + 39) & 63] == 3) return; } p[i + 100] = acc; }
