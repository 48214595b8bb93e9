__device__ int m_mid1(int);
__device__ int m_mid2(int);
__device__ int m_mid3(int);
__device__ int m_mid4(int);

__device__ __noinline__ int f_top1(int x) { return m_mid1(x) + m_mid2(x + 1); }
__device__ __noinline__ int f_top2(int x) { return m_mid2(x) * m_mid3(x - 1); }
__device__ __noinline__ int f_top3(int x) { return m_mid4(x) - m_mid1(x * 2); }
__device__ __noinline__ int f_unused_top(int x) { return m_mid4(x) + 99; }
