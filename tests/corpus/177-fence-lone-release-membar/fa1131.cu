// Kernels fa1131_0..2 of gen-fence-atomics.py (seed 1131).
__device__ int flag; __device__ int cnt;
extern "C" __global__ void fa1131_0(int *p, int *q, int n) { int i = threadIdx.x; int acc = 0; if (acc & 1) { if (i == 3) { atomicExch(&flag, acc); } __threadfence(); } __threadfence(); __threadfence(); p[i + 100] = acc; }
extern "C" __global__ void fa1131_1(int *p, int *q, int n) { int i = threadIdx.x; int acc = 0; q[i] = acc + 8; p[i + 60] = p[i] + n; acc += p[i + 40]; acc ^= atomicAdd(&cnt, 1); p[i + 100] = acc; }
extern "C" __global__ void fa1131_2(int *p, int *q, int n) { int i = threadIdx.x; int acc = 0; acc ^= atomicAdd(&cnt, 1); acc ^= atomicAdd(&cnt, 1); __threadfence(); __threadfence(); p[i + 100] = acc; }
