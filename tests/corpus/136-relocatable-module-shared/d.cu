// The second unit's array lands 0x20 into .nv_debug.shared, yet nvlink
// still gives it its input value (4) and writes 4 into the code (culd wrote
// 0x24, exit 0).
__shared__ int sd[24];
__global__ void kd(int *p) { sd[threadIdx.x % 24] = p[0]; __syncthreads(); p[threadIdx.x] = sd[(threadIdx.x + 1) % 24]; }
