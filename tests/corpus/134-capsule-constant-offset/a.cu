// sm_100+: c[28] is read with an immediate offset (0x70). nvlink writes the
// resolved constant-bank offset into the capsule's record of that load as
// well as into the SASS, in a final link and under -r; culd once left the
// capsule's field 0 (a different cubin, exit 0, found on bench/'s
// workload). The indexed loads' base has no record of its own.
__constant__ int c[32] = {5, 7, 9};
__device__ __noinline__ int pick(int x)
{
    int acc = x * 3 + c[28];
    for (int i = 0; i < 7; ++i)
        acc += c[(acc + i) & 31];
    return acc;
}
__global__ void k(int *p) { p[threadIdx.x] = pick(p[threadIdx.x]); }
