// Two device functions, one of them never called: its sinf (an FSETP
// against an immediate) and its double arithmetic make ptxas write 0x1 for
// the whole unit on sm_100, but nvlink drops the function and the output
// keeps 0x9.
__device__ float scale(float a) { return a * 2.0f; }

__device__ float unused_wave(float x, double d)
{
    return sinf(x) + (float)(d * 3.0 + 1.5);
}
