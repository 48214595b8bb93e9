// A final link of nvlink -r's output with dynamic parallelism: the unit that
// launches `child` also holds a template function waiting at a barrier,
// into whose .nv.info nvlink -r writes EXTERNS {child} ahead of its
// NUM_BARRIERS (ptxas wrote them the other way round). A kernel calling it
// gains both records in the final link, in that order: EXTERNS first.
// culd appended the barrier count first, exit 0 (generated seed 101567,
// two-step, sm_75-sm_120).
__global__ void child(int *out);

__global__ void parent(int *out)
{
    if (threadIdx.x == 0) {
        child<<<1, 32>>>(out);
        out[1] = (int)cudaGetLastError();
    }
}

template <int N> __device__ __noinline__ int staged(int v)
{
    __shared__ float s[N];
    s[threadIdx.x % N] = (float)v;
    __syncthreads();
    return (int)s[(v + 1) % N];
}

__global__ void user(int *out) { out[threadIdx.x] += staged<300>(out[threadIdx.x]); }
