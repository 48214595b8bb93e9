// Kernels shaped like libcudadevrt's memcpy_3d_device: a block index split
// by multiply-high divisions, a bounds check that returns early, then a copy.
// Each template flag reads more parameters before or after the check. With
// all six scoreboard barriers busy, ptxas (sm_100) puts two of the later
// parameter loads on the stack-pointer load's barrier, one read where ptxas
// waits on it and one later -- the shapes nvlink's finaliser re-colours.
struct Params {
    char *dst;
    const char *src;
    unsigned long bytes;
    unsigned long rowsPerSlice;
    unsigned long slices;
    unsigned long srcPitch;
    unsigned long srcRows;
    unsigned long dstPitch;
    unsigned long dstRows;
    unsigned blocksPerRow, magicRow, shiftRow, magicSlice;
    unsigned shiftSlice, pad;
    unsigned long limitA, limitB, offA, offB;
};

template <int V>
__global__ void copy3d(Params p)
{
    unsigned block = blockIdx.y * gridDim.x + blockIdx.x;
    unsigned long q = (unsigned long)__umulhi(block, p.magicRow) + block;
    unsigned long row = q >> p.shiftRow;
    unsigned r2 = (unsigned)row;
    unsigned long q2 = ((unsigned long)__umulhi(r2, p.magicSlice) + row) >> p.shiftSlice;
    unsigned long inSlice = row - q2 * p.rowsPerSlice;
    bool out = q2 >= p.slices;
    if (V & 1) out = out || inSlice >= p.limitA;
    if (V & 2) out = out || row >= p.limitB;
    if (out)
        return;
    unsigned part = block - p.blocksPerRow * r2;
    unsigned long so = (q2 * p.srcRows + inSlice) * p.srcPitch;
    unsigned long dO = (q2 * p.dstRows + inSlice) * p.dstPitch;
    if (V & 4) so += p.offA;
    if (V & 8) dO += p.offB;
    const char *s = p.src + so;
    char *d = p.dst + dO;
    unsigned long i = (unsigned long)part * blockDim.x + threadIdx.x;
    if (i < p.bytes)
        d[i] = s[i];
}

template __global__ void copy3d<0>(Params);
template __global__ void copy3d<1>(Params);
template __global__ void copy3d<2>(Params);
template __global__ void copy3d<13>(Params);
