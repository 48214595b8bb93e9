#!/usr/bin/env python3
"""Generates one CUDA file of four kernels for seed SEED (stdout): loads,
an optional early return and shared-memory round trip, then warp-shuffle,
vote or reduce steps with a full or computed mask, mostly inside a
divergent `if` -- the shapes that make ptxas emit BRA.DIV and WARPSYNC
and fill the scoreboard around them. Used by regen-samples.py; the
random draws are part of the samples' identity, keep their order.

usage: gen-warp-shuffle.py SEED
"""
import random, sys
seed=int(sys.argv[1]); r=random.Random(seed)
out=['#include <cstdint>']
def expr(v, T):
    ops=['%s + %s','%s * %s','max(%s, (T)%s)'.replace('T',T)] + (['%s ^ %s','(%s << 1) + %s','%s - (%s >> 2)'] if T!='float' else [])
    return r.choice(ops)%(v, r.choice(['a0','a1','lane','(int)threadIdx.x','k']))
for k in range(4):
    name='dv%d_%d'%(seed,k)
    T=r.choice(['int','unsigned','float'])
    body=[]
    nin=r.randint(1,3)
    params=', '.join('const %s* __restrict__ in%d'%(T,j) for j in range(nin))
    body.append('int i = blockIdx.x * blockDim.x + threadIdx.x; int lane = threadIdx.x & 31; int k = %d;'%r.randint(1,9))
    if r.random()<0.3: body.append('if (i >= n) return;')
    body.append('%s a0 = in0[i %% n];'%T)
    body.append('%s a1 = %s;'%(T, 'in1[(i+%d) %% n]'%r.randint(1,5) if nin>1 else 'a0 * 3'))
    if nin>2: body.append('a0 = a0 + in2[(i*%d) %% n];'%r.randint(2,7))
    body.append('%s v = %s;'%(T, expr('a0',T)))
    if r.random()<0.5:
        body.append('__shared__ %s sh[256]; sh[threadIdx.x] = v; __syncthreads(); v = v + sh[(threadIdx.x + %d) & 255];'%(T, r.randint(1,40)))
    cond=r.choice(['lane < %d'%r.randint(3,30), '(a0 > %s)'%('0' if T!='float' else '0.5f'), '(i & %d) == 0'%r.choice([1,3,7]), 'threadIdx.x < n'])
    mask=r.choice(['0xffffffffu']*5+['__activemask()','m'])
    inner=[]
    if mask=='m': inner.append('unsigned m = __ballot_sync(0xffffffffu, %s);'%cond.replace('&&','&&'))
    kind=r.choice(['up','xor','down','reduce','vote'])
    steps=[1,2,4,8,16][:r.randint(1,5)]
    for s in steps:
        if kind=='up': inner.append('{ %s t = __shfl_up_sync(%s, v, %d); if (lane >= %d) v = v + t; }'%(T,mask,s,s))
        elif kind=='xor': inner.append('v = v + __shfl_xor_sync(%s, v, %d);'%(mask,s))
        elif kind=='down': inner.append('v = %s;'%('max(v, __shfl_down_sync(%s, v, %d))'%(mask,s)))
        elif kind=='reduce' and T!='float': inner.append('v = v + (%s)__reduce_add_sync(%s, (unsigned)v);'%(T,mask)); break
        else: inner.append('v = v + (%s)__popc(__ballot_sync(%s, v > (%s)%d));'%(T,mask,T,s))
    if r.random()<0.85:
        body.append('if (%s) {'%cond); body+=inner; body.append('}')
    else:
        body+=inner
    if r.random()<0.5:
        body.append('if (lane == %d) out[i / 32] = v; else out2[i] = v + a1;'%r.randint(0,31))
    else:
        body.append('out[i] = v + a1;')
    if r.random()<0.4:
        body.append('for (int j = 0; j < %d; ++j) out2[(i + j * 64) %% n] = v * (%s)j;'%(r.randint(2,6),T))
    out.append('extern "C" __global__ void %s(%s, %s* out, %s* out2, int n) {\n  %s\n}'%(name,params,T,T,'\n  '.join(body)))
print('\n'.join(out))
