__device__ unsigned long long g_ticket;

__device__ __noinline__ void spin_lock(int *lock)
{
    while (atomicCAS(lock, 0, 1) != 0)
        ;
    __threadfence();
}

__device__ __noinline__ void spin_unlock(int *lock)
{
    __threadfence();
    atomicExch(lock, 0);
    unsigned long long old = g_ticket, assumed;
    do {
        assumed = old;
        old = atomicCAS(&g_ticket, assumed, assumed + 1);
    } while (old != assumed);
}
