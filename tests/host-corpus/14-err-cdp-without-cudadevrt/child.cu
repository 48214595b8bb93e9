// 14-err-cdp-without-cudadevrt: child.cu - the kernel launched from the device.
__global__ void child(int *out, int base) { out[threadIdx.x] = base + threadIdx.x; }
