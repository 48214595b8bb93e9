#!/usr/bin/env python3
"""gen-ordered-atomics.py SEED: a .cu file of three kernels (oaSEED_0..2)
built from libcu++'s scoped, ordered atomics (cuda::atomic_ref with each
memory order and thread scope, on int, unsigned long long and float) and
fences (cuda::atomic_thread_fence), some under a branch on a value the
compiler cannot see through, beside plain loads and stores. ptxas brackets
the ordered ones with the memory-fence sequences nvlink rewrites on sm_100+
(Fences.cpp). Deterministic for a seed."""
import random
import sys

ORDERS = ["relaxed", "acquire", "release", "acq_rel", "seq_cst"]
SCOPES = ["block", "device", "system"]


def order(r, kind):
    """A memory order valid for an operation of `kind`."""
    if kind == "load":
        return r.choice(["relaxed", "acquire", "seq_cst"])
    if kind == "store":
        return r.choice(["relaxed", "release", "seq_cst"])
    return r.choice(ORDERS)


def atomic(r):
    """One atomic_ref operation, its result folded into `acc`."""
    scope = r.choice(SCOPES)
    var, ty = r.choice([("ci", "int"), ("cu", "unsigned long long"), ("cf", "float")])
    ref = "cuda::atomic_ref<%s, cuda::thread_scope_%s>(%s)" % (ty, scope, var)
    ops = ["fetch_add", "load", "store", "exchange", "cas"]
    if ty != "float":
        ops += ["fetch_or", "fetch_and", "fetch_min"]
    op = r.choice(ops)
    kind = op if op in ("load", "store") else "rmw"
    mo = "cuda::memory_order_" + order(r, kind)
    if op == "load":
        return "acc += (int)%s.load(%s);" % (ref, mo)
    if op == "store":
        return "%s.store((%s)acc, %s);" % (ref, ty, mo)
    if op == "cas":
        return "{ %s e = (%s)i; %s.compare_exchange_strong(e, (%s)acc, %s); acc += (int)e; }" % (
            ty, ty, ref, ty, mo)
    arg = r.choice(["1", "i", "acc", "p[i]"])
    return "acc += (int)%s.%s((%s)(%s), %s);" % (ref, op, ty, arg, mo)


def statement(r, depth=0):
    """One random statement (nested `if`s up to depth 2)."""
    c = r.randrange(10)
    if c <= 3:
        return atomic(r)
    if c == 4:
        return "cuda::atomic_thread_fence(cuda::memory_order_%s, cuda::thread_scope_%s);" % (
            r.choice(["acquire", "release", "acq_rel", "seq_cst"]), r.choice(SCOPES))
    if c == 5:
        return "p[i + %d] = %s;" % (r.randrange(64), r.choice(["acc", "n", "p[i] + n", "q[i]"]))
    if c == 6:
        return "acc += q[i + %d];" % r.randrange(64)
    if c == 7 and depth < 2:
        return "if (%s) { %s %s }" % (
            r.choice(["acc & %d" % r.randrange(1, 8), "i %% %d == 0" % r.choice([2, 32]),
                      "i < n"]), statement(r, depth + 1), statement(r, depth + 1))
    if c == 8:
        return "if (i == %d) %s" % (r.randrange(4), atomic(r))
    return "acc ^= p[i + %d] * %d;" % (r.randrange(16), r.randrange(1, 9))


def main():
    seed = int(sys.argv[1])
    r = random.Random(seed)
    out = ["#include <cuda/atomic>",
           "__device__ int ci; __device__ unsigned long long cu; __device__ float cf;"]
    for k in range(3):
        body = " ".join(statement(r) for _ in range(r.randrange(2, 7)))
        out.append('extern "C" __global__ void oa%d_%d(int *p, int *q, int n) '
                   "{ int i = threadIdx.x; int acc = 0; %s p[i + 100] = acc; }" % (seed, k, body))
    print("\n".join(out))


if __name__ == "__main__":
    main()
