// Pairs (key, value) sorted in shared memory by a bitonic compare-exchange
// network of `len` elements: each thread loads two pairs from global
// memory, the block sorts, each thread stores two pairs back.
#define N 1024

__device__ inline void exchange(unsigned &ka, unsigned &va, unsigned &kb, unsigned &vb, unsigned up)
{
    if ((ka > kb) == up) {
        unsigned t = ka; ka = kb; kb = t;
        t = va; va = vb; vb = t;
    }
}

__global__ void sortPairs(unsigned *outKeys, unsigned *outVals, unsigned *inKeys,
                          unsigned *inVals, unsigned len, unsigned up)
{
    __shared__ unsigned keys[N], vals[N];
    unsigned base = blockIdx.x * N + threadIdx.x;
    inKeys += base;
    inVals += base;
    outKeys += base;
    outVals += base;
    keys[threadIdx.x] = inKeys[0];
    vals[threadIdx.x] = inVals[0];
    keys[threadIdx.x + N / 2] = inKeys[N / 2];
    vals[threadIdx.x + N / 2] = inVals[N / 2];
    for (unsigned size = 2; size < len; size <<= 1) {
        unsigned dir = up ^ ((threadIdx.x & (size / 2)) != 0);
        for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
            exchange(keys[pos], vals[pos], keys[pos + stride], vals[pos + stride], dir);
        }
    }
    for (unsigned stride = len / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
        exchange(keys[pos], vals[pos], keys[pos + stride], vals[pos + stride], up);
    }
    __syncthreads();
    outKeys[0] = keys[threadIdx.x];
    outVals[0] = vals[threadIdx.x];
    outKeys[N / 2] = keys[threadIdx.x + N / 2];
    outVals[N / 2] = vals[threadIdx.x + N / 2];
}
