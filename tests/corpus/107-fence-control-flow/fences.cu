// Kernels whose memory fences sit among branches, reconvergence points,
// atomics, shared memory and a stack, a kernel that calls, and a device
// function with a fence: nvlink 13.0 removes the fence placeholders of
// sm_100+ kernels that make no call (their BRA/BSSY targets, EXIT offsets,
// relocations, frame entries and capsules move) and keeps the others.
__device__ int flag;
__device__ __noinline__ void dfence(int *o) { o[1] = 3; __threadfence(); o[2] = 4; }
__global__ void kloop(int *o, int n) {
    for (int i = 0; i < n; ++i) {
        o[i] = i;
        __threadfence();
        if (o[i + 1])
            break;
    }
    flag = 1;
}
__global__ void kcall(int *o) { o[0] = 1; __threadfence(); dfence(o); }
__global__ void kstack(int *o, int n) {
    int a[32];
    for (int i = 0; i < 32; ++i)
        a[i] = o[i];
    o[0] = a[n & 31];
    __threadfence();
    o[1] = a[(n + 1) & 31];
}
__global__ void kcond(int *o, int n) {
    if (n > 3) {
        o[0] = 1;
        __threadfence_system();
    }
    o[1] = 2;
}
__global__ void ktwo(int *o) { o[0] = 1; __threadfence(); o[1] = 2; __threadfence_block(); o[2] = 3; }
__global__ void ksync(int *o) {
    __shared__ int s[64];
    s[threadIdx.x] = o[threadIdx.x];
    __syncthreads();
    __threadfence();
    o[threadIdx.x] = s[63 - threadIdx.x];
}
__global__ void katom(int *o) {
    atomicAdd(o, 1);
    __threadfence();
    if (atomicAdd(o + 1, 1) == 10)
        o[2] = 5;
}
__global__ void kpred(int *o, int n) {
    o[threadIdx.x] = 1;
    if (n > 3)
        __threadfence();
    flag = 1;
}
__global__ void kspin(volatile int *o) {
    while (o[0] == 0) {
    }
    __threadfence();
    o[1] = 1;
}
