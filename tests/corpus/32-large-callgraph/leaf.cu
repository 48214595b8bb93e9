__device__ __noinline__ int l_base(int x) { return x * 13 + 5; }
__device__ __noinline__ int l_leaf0(int x) { return l_base(x) + 1; }
__device__ __noinline__ int l_leaf1(int x) { return l_base(x) * 2; }
__device__ __noinline__ int l_leaf2(int x) { return l_base(x) - 3; }
__device__ __noinline__ int l_leaf3(int x) { return l_leaf0(x) ^ l_leaf2(x); }
