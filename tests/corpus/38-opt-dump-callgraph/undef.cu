// What nvlink lists beyond the functions with code: undefined functions live
// code calls (vprintf, malloc, free), with their names; the original of a
// `$N` clone (useS takes a const S&) and dead code with an empty name
// ("N: "); a file's internal-linkage function numbered before its other
// functions; an indirect call listing the address-taken functions of its
// prototype once per call site; and "regcount ... propagated to entry".
#include <cstdio>
struct S { int a, b; };
namespace { __device__ __noinline__ int hidden(int x) { return x * 7; } }
__device__ __noinline__ int useS(const S &s) { return s.a + s.b; }
__device__ __noinline__ int unused(int x) { return x - 3; }
__device__ __noinline__ float wide(const float *p) {
  float v[40];
#pragma unroll
  for (int i = 0; i < 40; ++i) v[i] = p[i * 37];
  float s = 0;
#pragma unroll
  for (int i = 0; i < 40; ++i) s += v[i] * v[(i * 7) % 40];
  return s;
}
__device__ __noinline__ int grab(int n) {
  int *p = (int *)malloc(n * 4);
  p[0] = n;
  int r = p[0];
  free(p);
  return r;
}
typedef int (*un_t)(int);
__device__ un_t g_table[2] = {hidden, grab};
__global__ void root_d(int *p) {
  S s{p[0], p[1]};
  p[2] = useS(s) + hidden(p[3]) + grab(p[4]);
  p[5] = g_table[p[6] & 1](p[7]) + g_table[p[8] & 1](p[9]);
  printf("%d\n", p[0]);
}
__global__ void root_e(float *p) { p[0] = wide(p); }
