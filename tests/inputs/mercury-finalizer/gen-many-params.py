#!/usr/bin/env python3
"""Generates one CUDA file of eight kernels for seed SEED (stdout), each
with 5-14 scalar parameters (int, unsigned, long long): a bound computed
from some of them, an early return (or a guarded store), and a store of
the others times the thread index. ptxas loads the parameters with LDCUs
and, with more of them in flight than scoreboard barriers, shares barriers
for want of a free one: the producers nvlink re-derives from the
registers. Used by regen-samples.py; the random draws are part of the
samples' identity, keep their order.

usage: gen-many-params.py SEED
"""
import random
import sys

seed = int(sys.argv[1])
r = random.Random(seed)
out = []
for k in range(8):
    n = r.randint(5, 14)
    types = [r.choice(['int', 'long long', 'long long', 'unsigned']) for _ in range(n)]
    params = ', '.join('%s a%d' % (t, j) for j, t in enumerate(types))
    idx = list(range(n))
    r.shuffle(idx)
    cut = r.randint(2, n - 1)
    bound = ' + '.join('a%d * %d' % (j, r.randint(2, 9)) for j in idx[:cut])
    rest = ' + '.join('a%d * i' % j for j in idx[cut:])
    ret = 'if (i >= e) return;' if r.random() < 0.8 else 'if (i < e) out[i + 1] = 3;'
    out.append('extern "C" __global__ void mp%d_%d(int *out, %s) {\n'
               '    int i = threadIdx.x + blockIdx.x * blockDim.x;\n'
               '    long long e = %s;\n    %s\n    out[i] = (int)(i * %d + %s);\n}\n'
               % (seed, k, params, bound, ret, r.randint(2, 9), rest))
print('\n'.join(out))
