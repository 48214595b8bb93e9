#!/usr/bin/env python3
"""gen-special-registers.py SEED: a .cu file of three kernels (srSEED_0..2)
that read special registers (thread and block indices, %laneid, %smid,
%warpid, the clock), shared memory, shuffles and float-to-int conversions
early, around __syncthreads, loops, early returns and stores -- the shapes
where ptxas puts S2R, S2UR, LDS, SHFL and F2I beside the stack-pointer
load and its barrier (see README.md). Some read a variable before writing
it (`int acc = __shfl_xor_sync(.., acc, ..)`), which ptxas may give the
stack pointer's register. Deterministic for a seed."""
import random
import sys

SOURCES = ["threadIdx.x", "threadIdx.y", "blockIdx.x", "blockIdx.y", "blockDim.x",
           "gridDim.x", "lane()", "(int)clock()", "smid()", "warpid()"]

HELPERS = [
    '__device__ __forceinline__ int %s() { int v; asm volatile("mov.u32 %%0, %%%%%s;" : "=r"(v));'
    " return v; }" % (name, register)
    for name, register in (("lane", "laneid"), ("smid", "smid"), ("warpid", "warpid"))]


def value(r):
    """One random int-valued expression."""
    c = r.randrange(8)
    if c == 0:
        return "s[(i + %d) & 63]" % r.randrange(64)
    if c == 1:
        return "(int)(f[i] * %d.5f)" % r.randrange(4)
    if c == 2:
        return "__shfl_xor_sync(0xffffffff, acc, %d)" % (1 << r.randrange(5))
    if c == 3:
        return "p[i + %d]" % r.randrange(16)
    if c == 4:
        return "(int)__ldg(f + i)"
    return r.choice(SOURCES)


def statement(r, depth=0):
    """One random statement (an if/else up to depth 2, a loop at depth 0)."""
    c = r.randrange(10)
    if c == 0:
        return "s[i & 63] = %s; __syncthreads();" % value(r)
    if c == 2:
        a = value(r)
        return "acc ^= %s * %s;" % (a, value(r))
    if c == 3 and depth < 2:
        cond = value(r)
        mask = r.randrange(1, 8)
        then = statement(r, depth + 1)
        return "if (%s & %d) { %s } else { %s }" % (cond, mask, then, statement(r, depth + 1))
    if c == 4 and depth < 1:
        return "for (int k = 0; k < n; ++k) { %s }" % statement(r, depth + 1)
    if c == 5:
        return "if (i < n) p[i] = acc;"
    if c == 6:
        cond = value(r)
        return "if (%s == %d) return;" % (cond, r.randrange(4))
    if c == 7:
        return "f[i + %d] = (float)acc;" % r.randrange(8)
    return "acc += %s;" % value(r)


def main():
    seed = int(sys.argv[1])
    r = random.Random(seed)
    out = list(HELPERS)
    for k in range(3):
        body = " ".join(statement(r) for _ in range(r.randrange(2, 7)))
        base = r.choice(["0", "blockIdx.x * blockDim.x"])
        out.append('extern "C" __global__ void sr%d_%d(int *p, float *f, int n) '
                   "{ __shared__ int s[64]; int i = threadIdx.x + %s; int acc = %s; "
                   "s[i & 63] = i; __syncthreads(); %s p[i + 100] = acc; }"
                   % (seed, k, base, value(r), body))
    print("\n".join(out))


if __name__ == "__main__":
    main()
