// The second copy of scan<int> loses to a.cu's. Its frame and line-table
// relocations go with it; its .debug_info (subprogram low/high pc) and
// .debug_loc (location list ranges) relocations stay, naming a.cu's copy.
template <typename T> __device__ __noinline__ T scan(T x, int n)
{
    T acc = 0;
    for (int j = 0; j < n; ++j) {
        T t = x * j;
        if (t > 3) {
            int q = j ^ 5;
            acc += t + q;
        }
    }
    return acc;
}

__global__ void kb(int *out) { out[threadIdx.x] = scan<int>(out[threadIdx.x], out[1]) + 2; }
