#!/usr/bin/env python3
"""Weak copies replaced by other code, and their .debug_frame entries (sm_100+).

When a later definition with other code replaces a weak copy of a device
function, nvlink 13.0 rebuilds the copy's .debug_frame entry by mapping the
copy's Mercury call-frame rows through the winner's Mercury code
(docs/nvlink-findings.md, "Blackwell"). Two measurements, both with nvlink
from the CUDA toolkit on PATH:

  frame_rows.py pairs -n 200 --arch sm_100 sm_120 --out DIR
      generated pairs: a weak (`inline`) and a strong definition of one leaf
      device function with different bodies, linked weak first by nvlink
      and culd; prints EQUIVALENT, the refusal or the difference per link.

  frame_rows.py probe --arch sm_100 -n 30 --seed 1 --out DIR
      where a row lands: a generated cubin of leaf functions is linked
      after a copy of itself whose globals are weak and whose Mercury frame
      programs are one `DW_CFA_advance_loc4 X`, for every 16-byte X up to
      the largest function; each function's replaced entry in nvlink's
      output shows the SASS offset the row at X lands on (or none).
      Prints one JSON line per function: its Mercury size, its SASS and
      Mercury frame rows, and the landings.
"""
import argparse
import json
import os
import random
import struct
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
SIGNATURE = 'int *p, float *q, int x, int y, float f, double d'

# ---------------------------------------------------------------- generator


def expression(r, depth, ty, names):
    """A random expression of type `ty` over `names` (no calls, no globals:
    the functions stay leaves without relocations)."""
    if depth == 0 or r.random() < 0.25:
        if r.random() < 0.3:
            return {'int': r.choice(['1', '7', '1000', '-5', '65536']),
                    'float': r.choice(['1.5f', '0.25f', '-2.0f']),
                    'double': r.choice(['1.5', '-2.0'])}[ty]
        return r.choice(names[ty])
    a, b = expression(r, depth - 1, ty, names), expression(r, depth - 1, ty, names)
    if ty == 'int':
        forms = ['(%s + %s)', '(%s * %s)', '(%s ^ %s)', '((%s) >> ((%s) & 7))', 'min(%s, %s)',
                 '((%s) > (%s) ? 1 : 2)', '__shfl_xor_sync(0xffffffff, %s, %s & 16)',
                 'p[((%s) + (%s)) & 63]', 'atomicAdd(p + ((%s) & 63), %s)',
                 '(int)__ballot_sync(0xffffffff, (%s) > (%s))', '__mulhi(%s, %s)',
                 '(int)__sad(%s, %s, 3u)', '((%s) / ((%s) | 1))']
        return r.choice(forms) % (a, b)
    if ty == 'float':
        forms = ['(%s + %s)', '(%s * %s)', 'fmaf(%s, %s, 1.0f)', 'fminf(%s, %s)',
                 '__fdividef(%s, %s)', '(__expf(%s) - %s)', 'atomicAdd(q + 3, %s + %s)',
                 '__half2float(__float2half(%s * %s))']
        return r.choice(forms) % (a, b)
    return r.choice(['(%s + %s)', '(%s * %s)', 'fma(%s, %s, 1.0)']) % (a, b)


def function(r, name, prefix=''):
    """A leaf device function `int name(SIGNATURE)` with a random body."""
    names = {'int': ['x', 'y'], 'float': ['f'], 'double': ['d']}
    body = []
    for k in range(r.randint(1, 4)):
        ty = r.choice(['int', 'float'])
        var = '%s%d' % (ty[0], k)
        body.append('    %s %s = %s;' % (ty, var, expression(r, r.randint(1, 4), ty, names)))
        names[ty].append(var)
    if r.random() < 0.3:
        body.append('    for (int i = 0; i < (x & 7); ++i) y += p[i] * %s;' % r.choice(names['int']))
    if r.random() < 0.3:
        body.append('    if (y > 3) p[y & 63] = %s;' % r.choice(names['int']))
    body.append('    return (int)(%s + %s);' % (r.choice(names['int']), r.choice(names['int'])))
    return '%s__device__ __noinline__ int %s(%s) {\n%s\n}\n' % (prefix, name, SIGNATURE,
                                                              '\n'.join(body))


def unit(functions, kernel):
    """A translation unit: the functions and a kernel calling each."""
    calls = ''.join('    acc += %s(p, q, x + %d, y, f, d);\n' % (n, i)
                    for i, (n, _) in enumerate(functions))
    return ('#include <cuda_fp16.h>\n' + ''.join(src for _, src in functions) +
            '__global__ void %s(%s) {\n    int acc = 0;\n%s    p[threadIdx.x] = acc;\n}\n'
            % (kernel, SIGNATURE, calls))

# ---------------------------------------------------------------- cubins


def sections(b):
    shoff, = struct.unpack_from('<Q', b, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', b, 0x3a)
    headers = [struct.unpack_from('<IIQQQQIIQQ', b, shoff + i * shentsize) for i in range(shnum)]
    names = headers[shstrndx][4]
    return [(b[names + h[0]:b.index(b'\0', names + h[0])].decode(),) + h for h in headers]


def symbols(b, secs, index):
    s = secs[index]
    strings = secs[s[7]][5]
    out = []
    for i in range(s[6] // 24):
        name, info, _, shndx, value, size = struct.unpack_from('<IBBHQQ', b, s[5] + 24 * i)
        out.append((b[strings + name:b.index(b'\0', strings + name)].decode(), info, shndx, size))
    return out


def leb128_end(buf, i):
    while i < len(buf) and buf[i] & 0x80:
        i += 1
    return i + 1


def frame_entries(path, name):
    """{function: (code alignment, [row locations], rule opcodes)} of a frame
    section, the first entry of each function only."""
    b = open(path, 'rb').read()
    secs = sections(b)
    index = [i for i, s in enumerate(secs) if s[0] == name][0]
    named = {}
    for s in secs:
        if s[8] == index and s[2] in (4, 0x70000082):  # RELA, Mercury RELA
            syms = symbols(b, secs, s[7])
            for k in range(s[6] // 24):
                offset, info, _ = struct.unpack_from('<QQq', b, s[5] + 24 * k)
                named[offset] = syms[info >> 32][0]
    data = b[secs[index][5]:secs[index][5] + secs[index][6]]
    at, align, out = 0, {}, {}
    while at < len(data):
        length, = struct.unpack_from('<Q', data, at + 4)
        body = data[at + 12:at + 12 + length]
        if struct.unpack_from('<Q', body, 0)[0] == 0xffffffffffffffff:
            align[at] = body[10]
        else:
            cie, = struct.unpack_from('<Q', body, 0)
            rows, rules, location, i, program = [], [], 0, 0, body[24:]
            while i < len(program):
                op = program[i]
                if op == 0x04:
                    location += struct.unpack_from('<I', program, i + 1)[0] * align.get(cie, 1)
                    rows.append(location)
                    i += 5
                elif op == 0x00:
                    i += 1
                else:  # def_cfa and the like: opcode, then one or two LEB128s
                    rules.append(op)
                    i = leb128_end(program, i + 1)
                    if op in (0x05, 0x0c, 0x11):
                        i = leb128_end(program, i)
            function = named.get(at + 20)
            if function and function not in out:
                out[function] = (align.get(cie), rows, rules)
        at += 12 + length
    return out


def weakened(src, dst, x):
    """`src` with its defined globals weak and every Mercury FDE program
    replaced by one advance to `x`."""
    b = bytearray(open(src, 'rb').read())
    secs = sections(bytes(b))
    for s in secs:
        if s[0] in ('.symtab', '.nv.merc.symtab'):
            for i in range(s[6] // 24):
                at = s[5] + 24 * i
                shndx, = struct.unpack_from('<H', b, at + 6)
                if b[at + 4] >> 4 == 1 and shndx != 0:
                    b[at + 4] = 2 << 4 | b[at + 4] & 0xf
    s = [s for s in secs if s[0] == '.nv.merc.debug_frame'][0]
    at = 0
    while at < s[6]:
        length, = struct.unpack_from('<Q', b, s[5] + at + 4)
        body = s[5] + at + 12
        if struct.unpack_from('<Q', b, body)[0] != 0xffffffffffffffff:
            b[body + 24:body + length] = bytes([4]) + struct.pack('<I', x) + \
                bytes(length - 29)
        at += 12 + length
    open(dst, 'wb').write(b)


def mercury_sizes(path):
    b = open(path, 'rb').read()
    secs = sections(b)
    index = [i for i, s in enumerate(secs) if s[0] == '.nv.merc.symtab'][0]
    return {name: size for name, _, _, size in symbols(b, secs, index) if size}

# ---------------------------------------------------------------- commands


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def probe(args):
    os.makedirs(args.out, exist_ok=True)
    r = random.Random(args.seed)
    functions = [('f%d' % i, function(r, 'f%d' % i, 'extern "C" ')) for i in range(args.num)]
    cu = os.path.join(args.out, 'leaves.cu')
    cubin = os.path.join(args.out, 'leaves.cubin')
    open(cu, 'w').write(unit(functions, 'leaves'))
    if run(['nvcc', '-arch=' + args.arch, '-rdc=true', '-cubin', '-o', cubin, cu]).returncode:
        sys.exit('nvcc failed on ' + cu)
    sizes = mercury_sizes(cubin)
    sass, merc = frame_entries(cubin, '.debug_frame'), frame_entries(cubin, '.nv.merc.debug_frame')
    landings = {f: {} for f in sass if f in sizes}

    def link(x):
        copy, out = os.path.join(args.out, 'A%d.cubin' % x), os.path.join(args.out, 'O%d.cubin' % x)
        weakened(cubin, copy, x)
        ok = run(['nvlink', '-arch=' + args.arch, copy, cubin, '-o', out]).returncode == 0
        entries = frame_entries(out, '.debug_frame') if ok else None
        for p in (copy, out):
            if os.path.exists(p):
                os.remove(p)
        return x, entries

    with ThreadPoolExecutor(args.jobs) as pool:
        for x, entries in pool.map(link, range(0, max(sizes.values()) + 32, 16)):
            for f in landings:
                if entries and f in entries and entries[f][0] == 4:
                    landings[f][x] = sorted(set(entries[f][1]) - set(sass[f][1]))
    for f, land in landings.items():
        print(json.dumps({'function': f, 'mercury_size': sizes[f], 'sass_rows': sass[f][1],
                          'mercury_rows': merc[f][1],
                          'landings': {x: v for x, v in land.items() if v}}))


def pairs(args):
    culd = args.culd or os.path.join(HERE, '..', '..', 'build', 'tools', 'culd', 'culd')
    diff = args.culd_diff or os.path.join(HERE, '..', '..', 'build', 'tools', 'culd-diff',
                                          'culd-diff')

    def one(job):
        seed, arch = job
        d = os.path.join(args.out, '%d.%s' % (seed, arch))
        os.makedirs(d, exist_ok=True)
        r = random.Random(seed)
        for kind, prefix in (('weak', 'inline '), ('strong', '')):
            src = unit([('pick', function(r, 'pick', prefix))], 'k_' + kind)
            open(os.path.join(d, kind + '.cu'), 'w').write(src)
            if run(['nvcc', '-arch=' + arch, '-rdc=true', '-cubin', '-o', kind + '.cubin',
                    kind + '.cu'], cwd=d).returncode:
                return '%d %s nvcc failed' % (seed, arch)
        inputs = ['weak.cubin', 'strong.cubin']
        nv = run(['nvlink', '-arch=' + arch] + inputs + ['-o', 'nvlink.cubin'], cwd=d)
        cu = run([culd, '-arch=' + arch] + inputs + ['-o', 'culd.cubin'], cwd=d)
        if nv.returncode or cu.returncode:
            return '%d %s nvlink=%d culd=%d %s' % (seed, arch, nv.returncode, cu.returncode,
                                                  cu.stderr.strip().split(', ')[-1])
        verdict = run([diff, 'nvlink.cubin', 'culd.cubin'], cwd=d).stdout.split('\n')[0]
        return '%d %s %s' % (seed, arch, verdict)

    jobs = [(s, a) for s in range(args.seed, args.seed + args.num) for a in args.arch]
    with ThreadPoolExecutor(args.jobs) as pool:
        for line in pool.map(one, jobs):
            print(line, flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest='command', required=True)
    for name in ('pairs', 'probe'):
        s = sub.add_parser(name)
        s.add_argument('-n', '--num', type=int, default=30)
        s.add_argument('--seed', type=int, default=1)
        s.add_argument('-j', '--jobs', type=int, default=2)
        s.add_argument('--out', required=True)
        if name == 'pairs':
            s.add_argument('--arch', nargs='+', default=['sm_100', 'sm_120'])
            s.add_argument('--culd')
            s.add_argument('--culd-diff')
        else:
            s.add_argument('--arch', default='sm_100')
    args = p.parse_args()
    {'pairs': pairs, 'probe': probe}[args.command](args)


if __name__ == '__main__':
    main()
