// Minimum of a block's values by halving, timed with clock() by thread 0.
__global__ void timedMinimum(const float *in, float *out, long *timer)
{
    extern __shared__ float vals[];
    int t = threadIdx.x, blk = blockIdx.x;
    if (t == 0)
        timer[blk] = clock();
    vals[t] = in[t];
    vals[t + blockDim.x] = in[t + blockDim.x];
    for (int d = blockDim.x; d > 0; d /= 2) {
        __syncthreads();
        if (t < d) {
            float a = vals[t], b = vals[t + d];
            if (b < a)
                vals[t] = b;
        }
    }
    if (t == 0)
        out[blk] = vals[0];
    __syncthreads();
    if (t == 0)
        timer[blk + gridDim.x] = clock();
}
