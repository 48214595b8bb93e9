// Kernels whose memory fences lose their placeholders on sm_100+, built
// with -lineinfo: their line-number sequences are encoded again.
__global__ void publish(int *p, int n) {
    int i = threadIdx.x;
    p[i] = p[i] * 3 + n;
    __threadfence();
    p[i + 32] = p[i] + n;
}
__global__ void twice(int *p, int n) {
    int i = threadIdx.x;
    if (n > 3) {
        __threadfence();
        p[i] ^= 5;
    }
    for (int j = 0; j < (n & 7); ++j)
        p[i + j] += j;
    __threadfence_system();
    p[i] = p[i] * 3 + n;
}
