// A generated fence-and-atomics kernel (gen-fence-atomics.py seed 223,
// kernel 1) on sm_120: a guarded store's read barrier is pending on both
// paths around a conditional atomic; ptxas puts the atomic's read barrier
// and the load after the join on one barrier, and nvlink puts the load
// with the store instead. culd keeps ptxas's group: a known gap.
__device__ int flag;
__global__ void k(int *p, int *q, int n) {
    int i = threadIdx.x;
    int acc = 0;
    acc += __ldg(q + i + 10);
    if (i < n) p[i] = acc;
    __threadfence();
    __threadfence_block();
    __threadfence_block();
    if (i == 2) { atomicExch(&flag, acc); }
    acc += p[i + 50];
    p[i + 100] = acc;
}
