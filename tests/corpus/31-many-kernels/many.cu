__constant__ int c_mul[32] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                               17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32 };

__device__ __noinline__ int common_a(int x) { return x * 3 + 1; }
__device__ __noinline__ int common_b(int x) { return common_a(x) ^ (x >> 1); }

#define SIMPLE(n) \
    __global__ void simple_##n(int *p) { p[threadIdx.x] = p[threadIdx.x] * c_mul[n] + n; }

#define CALLS(n) \
    __global__ void calls_##n(int *p) { p[threadIdx.x] = common_b(p[threadIdx.x] + n); }

#define SHARED(n)                                                  \
    __global__ void shared_##n(int *p)                             \
    {                                                              \
        __shared__ int s[16 * (n + 1)];                            \
        s[threadIdx.x % (16 * (n + 1))] = p[threadIdx.x];          \
        __syncthreads();                                           \
        p[threadIdx.x] = s[(threadIdx.x + n) % (16 * (n + 1))];   \
    }

#define LOCAL(n)                                                   \
    __global__ void local_##n(int *p, int k)                       \
    {                                                              \
        int l[32 + 8 * n];                                         \
        for (int i = 0; i < 32 + 8 * n; ++i)                       \
            l[i] = p[(i + threadIdx.x) & 255];                     \
        p[threadIdx.x] = l[k % (32 + 8 * n)] + common_a(n);        \
    }

SIMPLE(0) SIMPLE(1) SIMPLE(2) SIMPLE(3) SIMPLE(4) SIMPLE(5) SIMPLE(6) SIMPLE(7)
CALLS(0) CALLS(1) CALLS(2) CALLS(3) CALLS(4) CALLS(5) CALLS(6) CALLS(7)
SHARED(0) SHARED(1) SHARED(2) SHARED(3) SHARED(4) SHARED(5) SHARED(6) SHARED(7)
LOCAL(0) LOCAL(1) LOCAL(2) LOCAL(3) LOCAL(4) LOCAL(5) LOCAL(6) LOCAL(7)
