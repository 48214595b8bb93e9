// Dynamic parallelism: the LTO code calls libcudadevrt's device runtime,
// which nvlink links by a partial LTO; culd refuses it.
__global__ void child(int *p) { p[threadIdx.x] = 2; }
__global__ void parent(int *p) { child<<<1, 32>>>(p); }
