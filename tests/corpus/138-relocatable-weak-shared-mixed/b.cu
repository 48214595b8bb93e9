// The losing copy of the weak shared variable shares .nv_debug.shared with
// a module-scope array of this unit: nvlink drops the loser alone (the
// section shrinks by its size).
__shared__ int mine[12];
template <int N> __device__ __noinline__ int f_ts(int x) {
    __shared__ int s[N];
    s[threadIdx.x % N] = x;
    __syncthreads();
    return s[(threadIdx.x + 1) % N];
}
__global__ void kb(int *p) { mine[threadIdx.x % 12] = p[1]; p[threadIdx.x] = f_ts<4>(p[threadIdx.x]) + mine[3]; }
