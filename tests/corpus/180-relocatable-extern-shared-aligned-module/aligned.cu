// An extern __shared__ array used by one kernel beside a 16-byte-aligned
// module shared array another kernel uses, and a kernel using neither (as
// Thrust's extern shmem beside CUB's temporary storage). In a relocatable
// link nvlink gives every kernel a 16-byte shared window; culd, which gave
// the user alone one, refuses the link.
extern __shared__ char shmem[];
__shared__ __align__(16) int staged[64];

__global__ void user(int *out)
{
    int *p = reinterpret_cast<int *>(shmem);
    p[threadIdx.x] = 1;
    __syncthreads();
    out[threadIdx.x] = p[threadIdx.x ^ 1];
}

__global__ void stager(int *out)
{
    staged[threadIdx.x & 63] = 1;
    __syncthreads();
    out[threadIdx.x] = staged[(threadIdx.x + 1) & 63];
}

__global__ void plain(int *out) { out[threadIdx.x] = 3; }
