// Indirect calls through another prototype, in another file: the targets'
// named barriers and static shared memory reach the calling kernel, and
// recursion through the pointer makes its stack size unknown (the CRS stack
// size is appended before the barrier count).
typedef int (*fn2)(int, int);
__device__ fn2 table[3];

__device__ __noinline__ int with_barrier(int x, int y)
{
    asm volatile("bar.sync 5, 64;");
    return x + y;
}
__device__ __noinline__ int with_shared(int x, int y)
{
    __shared__ int s[100];
    s[threadIdx.x % 100] = x;
    __syncthreads();
    return s[(threadIdx.x + y) % 100];
}
__device__ __noinline__ int recurse(int x, int y)
{
    return x > 0 ? table[2](x - 1, y) + 1 : y;
}
__global__ void kptr(int *o, int x) { o[0] = table[x % 3](x, o[1]); }
__global__ void kfill(int *o) { table[0] = with_barrier; table[1] = with_shared; table[2] = recurse; }
