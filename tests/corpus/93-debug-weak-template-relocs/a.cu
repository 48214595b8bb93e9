// The first copy of scan<int>: it wins.
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

__global__ void ka(int *out) { out[threadIdx.x] = scan<int>(out[threadIdx.x], out[0]); }
