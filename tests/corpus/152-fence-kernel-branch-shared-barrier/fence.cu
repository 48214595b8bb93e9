// A kernel with a fence and a conditional atomic (sm_100+): after the
// stack-pointer load's range ptxas shares barrier 0 between a store's read
// barrier pending on the branch path and a later load; nvlink keeps the
// load on 0, culd's path-sensitive liveness moves it to 1 (a known gap).
__device__ int flag;
__global__ void k(int *p, int n) {
    int i = threadIdx.x;
    p[i] = i * 3;
    __threadfence();
    if (i == 0) atomicAdd(&flag, n);
    p[i + 32] = p[i] + n;
}
