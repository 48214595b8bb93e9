// A kernel under __maxnreg__(40) calling another unit's function that uses
// more registers: a relocatable link (-r) does not check register limits;
// the final link that takes its output does.
__device__ int heavy(const int *p, int n);

__global__ void __maxnreg__(40) k_maxnreg(int *out)
{
    out[threadIdx.x] = heavy(out, threadIdx.x);
}
