#!/usr/bin/env python3
"""gen-variable-latency.py SEED: a .cu file of three kernels (vlSEED_0..2)
built from operations whose results come back through a scoreboard
barrier and that the other generators never emit: the multi-function unit
(__sinf, __expf, rsqrtf, __fdividef), double arithmetic and conversions,
half-precision math, atomics that return a value (global and shared,
add/CAS/max/exch), warp match and reduce, popc/clz/brev, texture-object
fetches, vector and cache-hinted loads (float4, __ldcs, __ldlu), and
asynchronous copies into shared memory (__pipeline_memcpy_async) -- mixed
with branches, early returns, short loops and guarded stores. Kernels
without a stack or a call, so nvlink's finaliser may rewrite them.
Deterministic for a seed.

gen-variable-latency.py SEED FAMILY: only one family of those operations
(FAMILIES), beside shared-memory reads and plain values, so that what
nvlink does to that kind of producer can be measured alone. The
double-registers family is the double family with every operand a
register (DADD, DMUL, DFMA on two loaded doubles), as in Thrust's and
CUB's reductions of doubles. The shared-atomic-based family is the
shared-atomic family through a pointer into the array at an offset known
only at run time (ATOMS 0x38c: the address a register alone, ptxas's LEA
having added the window's uniform base), as CUB's onesweep radix sort
has it; atomicMax (signed) and atomicAdd (unsigned) drawn alike. The other families' output is
unchanged."""
import random
import sys

PRELUDE = """#include <cuda_fp16.h>
#include <cuda_pipeline.h>"""


# The value() cases of each family (the rest are shared-memory reads and
# plain values, 18-21).
FAMILIES = {
    "mufu": [0, 1, 2, 3],
    "double": [4, 5, 19],
    "double-registers": [4, 5, 19],
    "half": [6],
    "atomic": [7, 8, 10],
    "shared-atomic": [9],
    "shared-atomic-based": [9],
    "warp": [11, 12, 13],
    "texture": [14],
    "load": [15, 16, 17],
}
FAMILY = None


def value(r, depth=0):
    """One random int-valued expression."""
    c = r.randrange(22)
    if FAMILY and c < 18 and c not in FAMILIES[FAMILY]:
        c = r.choice(FAMILIES[FAMILY] + [18, 21])
    if c == 0:
        return "(int)(__sinf(f[i & 31]) * 64.0f)"
    if c == 1:
        return "(int)__expf((float)(acc & 7))"
    if c == 2:
        return "(int)(rsqrtf(f[i + 1] + 2.0f) * 100.0f)"
    if c == 3:
        return "(int)__fdividef(f[i], (float)(acc | 1))"
    if FAMILY == "double-registers" and c in (4, 5, 19):
        # Double arithmetic on registers only (DMUL 0x229, DFMA 0x22b,
        # DADD 0x228), as Thrust's and CUB's reductions of doubles have it.
        k = r.randrange(1, 8)
        return {4: "(int)(d[i & 15] * d[(i + %d) & 15])" % k,
                5: "(int)fma(d[i + 2], d[i + %d], (double)acc)" % k,
                19: "(int)(d[i] + d[i + %d])" % k}[c]
    if c == 4:
        return "(int)(d[i & 15] * %d.25)" % r.randrange(1, 5)
    if c == 5:
        return "(int)fma(d[i + 2], (double)acc, 1.5)"
    if c == 6:
        return "(int)__half2float(__hmul(__float2half(f[i]), __float2half(%d.0f)))" % r.randrange(1, 4)
    if c == 7:
        return "atomicAdd(p + (i & 7), %d)" % r.randrange(1, 9)
    if c == 8:
        return "atomicCAS(p + %d, acc, i)" % r.randrange(16)
    if c == 9 and FAMILY == "shared-atomic-based":
        return "%s(&sb[i & 31], acc)" % r.choice(["atomicMax", "atomicAdd"])
    if c == 9:
        return "atomicMax(&s[i & 63], acc)"
    if c == 10:
        return "atomicExch(p + 200 + (i & 3), acc)"
    if c == 11:
        return "(int)__match_any_sync(0xffffffff, acc & %d)" % r.randrange(1, 16)
    if c == 12:
        return "(int)__reduce_add_sync(0xffffffff, (unsigned)acc)"
    if c == 13:
        return r.choice(["__popc(acc)", "__clz(acc ^ i)", "(int)__brev((unsigned)acc)"])
    if c == 14:
        return "(int)tex1Dfetch<float>(t, i + %d)" % r.randrange(8)
    if c == 15:
        return "(int)reinterpret_cast<const float4 *>(f)[i & 15].%s" % r.choice("xyzw")
    if c == 16:
        return "__ldcs(p + i + %d)" % r.randrange(8)
    if c == 17:
        return "__ldlu(p + (i ^ %d))" % r.randrange(8)
    if c == 18:
        return "s[(i + %d) & 63]" % r.randrange(64)
    if c == 19:
        return "(int)(float)d[i]"
    if c == 20 and depth == 0:
        return "(%s + %s)" % (value(r, 1), value(r, 1))
    return r.choice(["threadIdx.x", "blockIdx.x", "n", "i"])


def statement(r, depth=0):
    """One random statement (an if/else up to depth 2, a loop at depth 0)."""
    c = r.randrange(11)
    if c == 0:
        return "s[i & 63] = %s; __syncthreads();" % value(r)
    if c == 1 and not FAMILY:
        return ("__pipeline_memcpy_async(&s[(i + %d) & 63], p + i, 4); __pipeline_commit(); "
                "__pipeline_wait_prior(0); __syncthreads();" % r.randrange(64))
    if c == 2:
        return "acc ^= %s * %s;" % (value(r), value(r))
    if c == 3 and depth < 2:
        cond = value(r)
        then = statement(r, depth + 1)
        return "if (%s & %d) { %s } else { %s }" % (cond, r.randrange(1, 8), then,
                                                    statement(r, depth + 1))
    if c == 4 and depth < 1:
        return "for (int k = 0; k < n; ++k) { %s }" % statement(r, depth + 1)
    if c == 5:
        return "if (i < n) p[i] = acc;"
    if c == 6:
        return "if (%s == %d) return;" % (value(r), r.randrange(4))
    if c == 7 and FAMILY in (None, "double"):
        return "d[i + %d] = (double)acc * 0.5;" % r.randrange(8)
    if c == 8 and FAMILY in (None, "atomic"):
        return "atomicAdd(p + 300, %s);" % value(r)
    return "acc += %s;" % value(r)


def main():
    global FAMILY
    seed = int(sys.argv[1])
    FAMILY = sys.argv[2] if len(sys.argv) > 2 else None
    if FAMILY and FAMILY not in FAMILIES:
        sys.exit("unknown family %s; one of %s" % (FAMILY, ", ".join(FAMILIES)))
    r = random.Random(seed)
    out = [PRELUDE]
    for k in range(3):
        body = " ".join(statement(r) for _ in range(r.randrange(2, 7)))
        base = r.choice(["0", "blockIdx.x * blockDim.x"])
        based = "int *sb = s + (n & 31); " if FAMILY == "shared-atomic-based" else ""
        out.append('extern "C" __global__ void vl%d_%d(int *p, float *f, double *d, '
                   "cudaTextureObject_t t, int n) "
                   "{ __shared__ int s[64]; %sint i = threadIdx.x + %s; int acc = %s; "
                   "s[i & 63] = i; __syncthreads(); %s p[i + 100] = acc; }"
                   % (seed, k, based, base, value(r), body))
    print("\n".join(out))


if __name__ == "__main__":
    main()
