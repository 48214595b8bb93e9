// Kernels fa1002_0..2 of gen-fence-atomics.py (seed 1002).
__device__ int flag; __device__ int cnt;
extern "C" __global__ void fa1002_0(int *p, int *q, int n) { int i = threadIdx.x; int acc = 0; acc += __ldg(q + i + 13); p[i + 18] = n; acc += p[i + 61]; if (i % 1 == 1) atomicAdd(&flag, n); p[i + 28] = i * 3; acc ^= atomicAdd(&cnt, 1); __threadfence(); p[i + 100] = acc; }
extern "C" __global__ void fa1002_1(int *p, int *q, int n) { int i = threadIdx.x; int acc = 0; if (acc & 6) { if (i % 2 == 1) atomicAdd(&flag, 1); if (i < n) p[i] = acc; } if (i < n) p[i] = acc; acc += p[i + 10]; if (acc & 5) { if (i < n) p[i] = acc; q[i] = acc + 4; } __threadfence_block(); __threadfence_block(); acc ^= atomicAdd(&cnt, 1); p[i + 100] = acc; }
extern "C" __global__ void fa1002_2(int *p, int *q, int n) { int i = threadIdx.x; int acc = 0; if (i < n) p[i] = acc; __threadfence_block(); acc ^= atomicAdd(&cnt, 1); p[i + 100] = acc; }
