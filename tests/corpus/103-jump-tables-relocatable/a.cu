// Jump tables: sw1 (8 cases) called from k1 and k2, k3 with its own switch.
__device__ __noinline__ int sw1(int x, int y) {
  switch (x) {
  case 0: return y + 1; case 1: return y * 3; case 2: return y - 7; case 3: return y ^ 5;
  case 4: return y << 2; case 5: return y / 3; case 6: return y % 11; case 7: return -y;
  default: return y;
  }
}
extern __device__ int sw2(int x, int y);
__global__ void k1(int *p) { p[threadIdx.x] = sw1(p[threadIdx.x], threadIdx.x); }
__global__ void k2(int *p) { p[threadIdx.x] = sw1(p[1], 2) + sw2(p[threadIdx.x], 3); }
__global__ void k3(int *p) {
  int x = p[threadIdx.x], y = p[0];
  switch (x) {
  case 0: y += 1; break; case 1: y *= 3; break; case 2: y -= 7; break; case 3: y ^= 5; break;
  case 4: y <<= 2; break; case 5: y /= 3; break; case 6: y %= 11; break; case 7: y = -y; break;
  }
  p[threadIdx.x + 1] = y;
}
