// tests/inputs/mercury-finalizer/gen-fence-atomics.py 2010: culd's finaliser writes
// scoreboard fields other than nvlink's for some kernel of this file on
// sm_100 and sm_120, exit 0 (a known gap; docs/nvlink-findings.md).
__device__ int flag; __device__ int cnt;
extern "C" __global__ void fa2010_0(int *p, int *q, int n) { int i = threadIdx.x; int acc = 0; q[i] = acc + 7; p[i + 56] = p[i + 1] * n; acc += p[i + 27]; p[i + 31] = p[i] + n; p[i + 100] = acc; }
extern "C" __global__ void fa2010_1(int *p, int *q, int n) { int i = threadIdx.x; int acc = 0; if (acc & 4) { q[i] = acc + 2; acc += __ldg(q + i + 15); } acc += p[i + 31]; p[i + 4] = p[i] + n; if (i < n) p[i] = acc; acc ^= atomicAdd(&cnt, 1); p[i + 30] = n; acc += __ldg(q + i + 11); p[i + 100] = acc; }
extern "C" __global__ void fa2010_2(int *p, int *q, int n) { int i = threadIdx.x; int acc = 0; acc += p[i + 10]; if (i % 1 == 0) atomicAdd(&flag, 1); __threadfence(); __threadfence_block(); acc += __ldg(q + i + 4); if (acc & 7) { if (i == 1) { atomicExch(&flag, acc); } if (i == 2) { atomicExch(&flag, acc); } } p[i + 100] = acc; }
