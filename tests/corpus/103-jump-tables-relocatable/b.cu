// Jump tables: sw2 (9 cases, one table of 16 bytes) called from k2 and k4.
__device__ __noinline__ int sw2(int x, int y) {
  switch (x) {
  case 10: return y + 11; case 11: return y * 13; case 12: return y - 17; case 13: return y ^ 15;
  case 14: return y << 3; case 15: return y / 7; case 16: return y % 13; case 17: return ~y;
  case 18: return y + 100;
  default: return y;
  }
}
__global__ void k4(int *p) { p[threadIdx.x] = sw2(p[threadIdx.x], 5); }
