__device__ int l_leaf0(int);
__device__ int l_leaf1(int);
__device__ int l_leaf2(int);
__device__ int l_leaf3(int);

__device__ __noinline__ int m_mid1(int x) { return l_leaf0(x) + l_leaf1(x); }
__device__ __noinline__ int m_mid2(int x) { return l_leaf1(x) ^ l_leaf2(x); }
__device__ __noinline__ int m_mid3(int x) { return l_leaf2(x) + m_mid1(x >> 1); }
__device__ __noinline__ int m_mid4(int x) { return l_leaf3(x) + m_mid2(x << 1); }
