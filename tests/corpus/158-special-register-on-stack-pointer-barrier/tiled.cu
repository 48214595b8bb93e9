// Tiled matrix product C = A * B (square tiles of TILE x TILE in shared
// memory; wA and wB are the widths of A and B).
template <int TILE>
__global__ void tiledProduct(float *c, const float *a, const float *b, int wA, int wB)
{
    __shared__ float as[TILE][TILE];
    __shared__ float bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int aFirst = wA * TILE * blockIdx.y, aLast = aFirst + wA - 1;
    int bFirst = TILE * blockIdx.x;
    float sum = 0;
    for (int ai = aFirst, bi = bFirst; ai <= aLast; ai += TILE, bi += TILE * wB) {
        as[ty][tx] = a[ai + wA * ty + tx];
        bs[ty][tx] = b[bi + wB * ty + tx];
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            sum += as[ty][k] * bs[k][tx];
        __syncthreads();
    }
    c[wB * TILE * blockIdx.y + TILE * blockIdx.x + wB * ty + tx] = sum;
}

template __global__ void tiledProduct<16>(float *, const float *, const float *, int, int);
template __global__ void tiledProduct<32>(float *, const float *, const float *, int, int);
