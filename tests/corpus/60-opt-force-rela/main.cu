extern __device__ unsigned long long g_ticket;
__device__ void spin_lock(int *lock);
__device__ void spin_unlock(int *lock);

__global__ void atomics(int *ip, float *fp, double *dp, int *lock)
{
    __shared__ int smax;
    if (threadIdx.x == 0)
        smax = 0;
    __syncthreads();
    atomicMax(&smax, ip[threadIdx.x]);
    atomicAdd(fp, 1.0f);
    atomicAdd(dp, 2.0);
    atomicMin_block(ip + 1, (int)threadIdx.x);
    atomicAdd_system(ip + 2, 1);
    unsigned long long t = atomicAdd(&g_ticket, 1ULL);
    spin_lock(lock);
    ip[3] += (int)t;
    spin_unlock(lock);
    __syncthreads();
    if (threadIdx.x == 0)
        atomicExch(ip + 4, smax);
}
