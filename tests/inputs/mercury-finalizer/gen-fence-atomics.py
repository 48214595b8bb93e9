#!/usr/bin/env python3
"""gen-fence-atomics.py SEED: a .cu file of three kernels (faSEED_0..2)
mixing fences, conditional atomics (their results used or not), stores,
global and read-only loads, and branches on a value the compiler cannot
see through -- the shapes where ptxas leaves producers pending at a join
or at the EXIT (see README.md). Deterministic for a seed."""
import random
import sys


def statement(r, depth=0):
    """One random statement of a kernel body (nested `if`s up to depth 2)."""
    c = r.randrange(11)
    if c == 0:
        return "__threadfence();"
    if c == 1:
        return "__threadfence_block();"
    if c == 2:
        return "if (i %% %d == %d) atomicAdd(&flag, %s);" % (
            r.choice([1, 2, 4, 32]), r.randrange(2), r.choice(["n", "i", "p[i]", "1"]))
    if c == 3:
        return "p[i + %d] = %s;" % (
            r.randrange(64), r.choice(["i * 3", "n", "p[i] + n", "p[i + 1] * n", "q[i]"]))
    if c == 4:
        return "acc += p[i + %d];" % r.randrange(64)
    if c == 5:
        return "if (i == %d) { atomicExch(&flag, acc); }" % r.randrange(4)
    if c == 6:
        return "acc ^= atomicAdd(&cnt, 1);"
    if c == 7:
        return "q[i] = acc + %d;" % r.randrange(9)
    if c == 8 and depth < 2:
        mask = r.randrange(1, 8)
        first = statement(r, depth + 1)
        return "if (acc & %d) { %s %s }" % (mask, first, statement(r, depth + 1))
    if c == 9:
        return "acc += __ldg(q + i + %d);" % r.randrange(16)
    return "if (i < n) p[i] = acc;"


def main():
    seed = int(sys.argv[1])
    r = random.Random(seed)
    out = ["__device__ int flag; __device__ int cnt;"]
    for k in range(3):
        body = " ".join(statement(r) for _ in range(r.randrange(3, 8)))
        out.append('extern "C" __global__ void fa%d_%d(int *p, int *q, int n) '
                   "{ int i = threadIdx.x; int acc = 0; %s p[i + 100] = acc; }" % (seed, k, body))
    print("\n".join(out))


if __name__ == "__main__":
    main()
