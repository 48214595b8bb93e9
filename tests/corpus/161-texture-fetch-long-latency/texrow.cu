// A row of six texels around each pixel, fetched up front, then compared
// against a shifted row in a loop.
__global__ void rowMatch(unsigned *out, cudaTextureObject_t img, int width, int shifts)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y;
    unsigned t0 = tex2D<unsigned>(img, x - 3, y), t1 = tex2D<unsigned>(img, x - 2, y);
    unsigned t2 = tex2D<unsigned>(img, x - 1, y), t3 = tex2D<unsigned>(img, x, y);
    unsigned t4 = tex2D<unsigned>(img, x + 1, y), t5 = tex2D<unsigned>(img, x + 2, y);
    unsigned best = ~0u;
    for (int s = 0; s < shifts; ++s) {
        unsigned d = t0 * s + t1 - t2 * s + t3 + t4 * s - t5;
        best = d < best ? d : best;
    }
    if (x < width)
        out[y * width + x] = best;
}
