#!/usr/bin/env python3
"""Random multi-file CUDA C++ program generator for differential testing.

A program is described by a *plan* (plain JSON): the number of translation
units, which unit holds a host main(), and a list of *items*.  An item is one
instance of a feature module (cross-file call, template, memory space, ...)
placed on one or more units, with its own random seed.  Rendering a plan is
deterministic, and every item draws only from its own random stream, so
dropping items or units (what shrink.py does) leaves the rest unchanged.

    gen.py SEED [--out DIR] [--plan]     write the sources (or print the plan)
"""

import argparse
import json
import os
import random
import sys

MAX_TUS = 4


class Unit:
    """One translation unit being built: includes, top-level code, kernels."""

    def __init__(self, index):
        self.index = index
        self.includes = set()
        self.blocks = []
        self.launches = []  # (kernel name, dynamic shared bytes, further arguments)
        self.signatures = []  # (kernel name, parameter types) of those launches

    @property
    def name(self):
        return "tu%d.cu" % self.index

    def add(self, code):
        self.blocks.append(code.strip("\n"))


class Item:
    """One feature instance while rendering: name prefix, units, random stream."""

    def __init__(self, plan_item, units):
        self.id = plan_item["id"]
        self.p = "f%d_" % self.id
        self.units = [units[t] for t in plan_item["tus"]]
        self.rng = random.Random("%s:%d" % (plan_item["seed"], self.id))
        self.needs_devrt = False

    def kernel(self, unit, name, body, launch=True, shmem=0, attrs=None, params=()):
        """Add `__global__ void name(int *out, params...)`; host main may
        launch it. `params` are (C type, host argument) pairs."""
        if attrs is None:
            attrs = kernel_attrs(self.rng)
        decl = "".join(", %s a%d" % (t, j) for j, (t, _) in enumerate(params))
        unit.add("__global__ void %s%s(int *out%s)\n{\n    int i = threadIdx.x + blockIdx.x * blockDim.x;\n%s\n}"
                 % (attrs, name, decl, indent(body)))
        if launch:
            unit.launches.append((name, shmem, "".join(", " + arg for _, arg in params)))
            unit.signatures.append((name, [t for t, _ in params]))

    def consts(self, n, lo=1, hi=1000):
        return [self.rng.randint(lo, hi) for _ in range(n)]


def indent(code):
    return "\n".join("    " + line if line else line for line in code.strip("\n").split("\n"))


def kernel_attrs(rng):
    """No attribute, __launch_bounds__ (1 or 2 args) or __maxnreg__."""
    r = rng.random()
    if r < 0.6:
        return ""
    if r < 0.75:
        return "__launch_bounds__(%d) " % rng.choice([64, 128, 256])
    if r < 0.87:
        return "__launch_bounds__(%d, %d) " % (rng.choice([128, 256]), rng.choice([1, 2, 4]))
    # low limits fail in ptxas when a same-unit __noinline__ callee needs more
    return "__maxnreg__(%d) " % rng.choice([128, 168, 255])


def noinline(rng):
    return "__noinline__ " if rng.random() < 0.8 else ""


# --------------------------------------------------------------------------
# Feature modules.  Each takes an Item and adds code to its units.  Names are
# prefixed with item.p so items never collide.

def feat_xcall(it):
    """Cross-file calls: a callee chain over the item's units, kernel in the first."""
    p, us, k = it.p, it.units, it.consts(4)
    cc = 'extern "C" ' if it.rng.random() < 0.2 else ""
    # unit i defines link i, which calls link i+1 defined in the next unit
    n = len(us)
    for i in range(1, n):
        callee = "%slink%d" % (p, i)
        nxt = "%slink%d" % (p, i + 1)
        body = "return x * %d + (int)threadIdx.x;" % k[i] if i == n - 1 else \
            "return %s(x + %d) ^ %d;" % (nxt, k[i], k[0])
        decl = "" if i == n - 1 else "%s__device__ int %s(int x);\n" % (cc, nxt)
        us[i].add("%s%s__device__ %sint %s(int x)\n{\n    %s\n}" % (decl, cc, noinline(it.rng), callee, body))
    us[0].add("%s__device__ int %slink1(int x);" % (cc, p))
    it.kernel(us[0], p + "kern", "out[i] = %slink1(out[i]);" % p)


def feat_template(it):
    """The same template function instantiated in several units (weak definitions),
    sometimes calling the math library: sinf gives each copy a constant bank,
    sin(double) a call to its unit's local slow path."""
    p, k = it.p, it.consts(2)
    types = ["int", "float", "double", "unsigned"]
    used = [it.rng.sample(types, it.rng.randint(1, 3)) for _ in it.units]
    math = it.rng.choice(["", "", "sinf", "sin"])
    extra = {"": "", "sinf": " + (T)sinf((float)x)", "sin": " + (T)sin((double)x)"}[math]
    for u, types_used in zip(it.units, used):
        u.add("template <typename T>\n__device__ __noinline__ T %stw(T x)\n{\n    return x * (T)%d + (T)%d%s;\n}"
              % (p, k[0], k[1], extra))
        body = "\n".join("out[i] += (int)%stw<%s>((%s)out[i]);" % (p, t, t) for t in types_used)
        it.kernel(u, "%skern%d" % (p, u.index), body)


def feat_inline_var(it):
    """C++17 inline __device__ variables (and a variable template) in several units."""
    p, k = it.p, it.consts(6)
    n = it.rng.randint(2, 16)
    init = ", ".join(str(v) for v in it.consts(n))
    for u in it.units:
        u.add("inline __device__ int %siv = %d;\ninline __device__ int %siarr[%d] = {%s};\n"
              "template <typename T> inline __device__ T %svt = T(%d);"
              % (p, k[0], p, n, init, p, k[1]))
        it.kernel(u, "%skern%d" % (p, u.index),
                  "out[i] = %siv + %siarr[i %% %d] + (int)%svt<float>;\n%siv += %svt<int>;"
                  % (p, p, n, p, p, p))


def feat_globals(it):
    """__device__ (with/without initialiser), __constant__ and __managed__ across units."""
    p, r = it.p, it.rng
    home, users = it.units[0], it.units[1:] or it.units
    n = r.randint(1, 64)
    cinit = ", ".join(str(v) for v in it.consts(min(n, 8)))
    defs = ["__device__ int %sg1 = %d;" % (p, r.randint(1, 99)),
            "__device__ int %sg2;" % p,
            "__device__ float %sgarr[%d];" % (p, n),
            "__constant__ int %sc[%d] = {%s};" % (p, n, cinit)]
    uses = ["out[i] += %sg1;" % p, "%sg2 = out[i];" % p,
            "%sgarr[i %% %d] = (float)out[i];" % (p, n), "out[i] += %sc[i %% %d];" % (p, n)]
    if r.random() < 0.5:
        defs.append("__managed__ int %sm = %d;" % (p, r.randint(0, 9)))
        uses.append("out[i] += %sm;" % p)
    home.add("\n".join(defs))
    for u in users:
        if u is not home:
            u.add("\n".join("extern " + d.split(" =")[0].rstrip(";") + ";" for d in defs))
        it.kernel(u, "%skern%d" % (p, u.index), "\n".join(r.sample(uses, r.randint(1, len(uses)))))


# Shared element types: (type, how an int v becomes one, how one becomes a
# number). Alignments 1 to 32 and small counts reach the -r sizing rule
# (a section no larger than its alignment grows by it) and the window
# alignment the module's shared memory imposes (docs/nvlink-findings.md).
SHARED_TYPES = [
    ("int", 4, "%s", "%s"),
    ("float", 4, "(float)%s", "(int)%s"),
    ("char", 1, "(char)%s", "(int)%s"),
    ("double", 8, "(double)%s", "(int)%s"),
    ("float4", 16, "make_float4(%s, 0.f, 0.f, 1.f)", "(int)%s.x"),
    ("Wide32", 32, "Wide32{{(float)%s}}", "(int)%s.x[0]"),
]
# Element counts are capped so that an array stays within this many bytes
# (a kernel's shared memory within the 48 KiB nvlink allows).
SHARED_ARRAY_BYTES = 8192


def shared_counts(counts, size):
    return [n for n in counts if n * size <= SHARED_ARRAY_BYTES]


WIDE32 = "struct __align__(32) Wide32 {\n    float x[8];\n};"


def shared_type(u, r):
    t = r.choice(SHARED_TYPES)
    if t[0] == "Wide32" and WIDE32 not in u.blocks:
        u.add(WIDE32)
    return t


def feat_static_shared(it):
    """Static __shared__ arrays in kernels and in a device function used across units."""
    p, r = it.p, it.rng
    home = it.units[0]
    t, size, make, num = shared_type(home, r)
    m = r.choice(shared_counts([1, 2, 16, 32, 100, 256, 1024], size))
    home.add("__device__ __noinline__ float %ssf(int v)\n{\n    __shared__ %s t[%d];\n"
             "    t[threadIdx.x %% %d] = %s;\n    __syncthreads();\n    return (float)(%s);\n}"
             % (p, t, m, m, make % "v", num % ("t[(v + 1) %% %d]" % m)))
    for u in it.units:
        if u is not home:
            u.add("__device__ float %ssf(int v);" % p)
        t, size, make, num = shared_type(u, r)
        n = r.choice(shared_counts([1, 3, 8, 64, 512, 2048], size))
        it.kernel(u, "%skern%d" % (p, u.index),
                  "__shared__ %s s[%d];\ns[threadIdx.x %% %d] = %s;\n__syncthreads();\n"
                  "out[i] = %s + (int)%ssf(out[i]);"
                  % (t, n, n, make % "out[i]", num % ("s[(i + 3) %% %d]" % n), p))


def feat_extern_shared(it):
    """extern __shared__ dynamic arrays, in a kernel and in a device function."""
    p, r = it.p, it.rng
    home = it.units[0]
    t = r.choice(["int", "float", "double", "char"])
    home.add("__device__ __noinline__ int %sdyn_sum(int n)\n{\n    extern __shared__ %s %sbuf[];\n"
             "    int s = 0;\n    for (int j = 0; j < n; ++j) s += (int)%sbuf[j];\n    return s;\n}"
             % (p, t, p, p))
    for u in it.units:
        if u is not home:
            u.add("__device__ int %sdyn_sum(int n);" % p)
        it.kernel(u, "%skern%d" % (p, u.index),
                  "extern __shared__ int dyn[];\ndyn[threadIdx.x] = out[i];\n__syncthreads();\n"
                  "out[i] = %sdyn_sum(threadIdx.x);" % p, shmem=1024)


def feat_tmpl_shared(it):
    """Templated __shared__ arrays: one template, several sizes per unit."""
    p, r = it.p, it.rng
    # One element type for every unit: the template's instances are weak
    # copies of one definition (differing sizes are an ODR violation that
    # both linkers refuse).
    t, size, make, num = r.choice(SHARED_TYPES)
    for u in it.units:
        if t == "Wide32" and WIDE32 not in u.blocks:
            u.add(WIDE32)
        u.add("template <int N>\n__device__ __noinline__ int %sts(int v)\n{\n    __shared__ %s s[N];\n"
              "    s[threadIdx.x %% N] = %s;\n    __syncthreads();\n    return %s;\n}"
              % (p, t, make % "v", num % "s[(v + 1) % N]"))
        counts = shared_counts([1, 2, 4, 32, 128, 300, 1024], size)
        sizes = r.sample(counts, r.randint(1, min(3, len(counts))))
        it.kernel(u, "%skern%d" % (p, u.index),
                  "\n".join("out[i] += %sts<%d>(out[i]);" % (p, n) for n in sizes))


def feat_spill(it):
    """Local arrays indexed at run time (stack frame), under register pressure."""
    p, r = it.p, it.rng
    u = it.units[0]
    n = r.choice([16, 64, 256, 1000])
    t = r.choice(["int", "double", "float"])
    fn = "%sloc" % p
    attrs = r.choice(["__maxnreg__(24) ", "__launch_bounds__(1024) ", ""])
    inl = "" if attrs else noinline(r)  # a limited kernel may not call a bigger callee
    u.add("__device__ %s%s %s(int a, int b)\n{\n    %s loc[%d];\n    for (int j = 0; j < %d; ++j) loc[j] = (%s)(a * j + b);\n"
          "    return loc[(a ^ b) %% %d] + loc[b %% %d];\n}" % (inl, t, fn, t, n, n, t, n, n))
    it.kernel(u, p + "kern", "out[i] = (int)%s(out[i], i);" % fn, attrs=attrs)


def feat_fptr(it):
    """Function pointer table in a __device__ variable (data relocations), called across units."""
    p, r = it.p, it.rng
    home, user = it.units[0], it.units[-1]
    n = r.randint(2, 6)
    k = it.consts(n)
    ops = "\n".join("__device__ __noinline__ int %sop%d(int x) { return x * %d + %d; }" % (p, j, k[j], j)
                    for j in range(n))
    home.add("%s\n__device__ int (*%stab[%d])(int) = {%s};"
             % (ops, p, n, ", ".join("%sop%d" % (p, j) for j in range(n))))
    if user is not home:
        user.add("extern __device__ int (*%stab[%d])(int);" % (p, n))
    it.kernel(user, p + "kern", "int (*f)(int) = %stab[out[i] %% %d];\nout[i] = f(out[i]);" % (p, n))


def feat_virtual(it):
    """Class hierarchy with virtual methods constructed on the device (vtables)."""
    p, r = it.p, it.rng
    k = it.consts(3)
    cls = ("struct %sBase {\n    __device__ virtual int f(int x) { return x + %d; }\n"
           "    __device__ virtual ~%sBase() {}\n};\n"
           "struct %sD1 : %sBase {\n    int m;\n    __device__ %sD1(int v) : m(v) {}\n"
           "    __device__ int f(int x) override { return x * m + %d; }\n};\n"
           "struct %sD2 : %sBase {\n    __device__ int f(int x) override { return x - %d; }\n};"
           % (p, k[0], p, p, p, p, k[1], p, p, k[2]))
    for u in it.units:
        u.add(cls)
        if r.random() < 0.5:
            body = ("%sBase *b;\nif (out[i] & 1) b = new %sD1(i); else b = new %sD2();\n"
                    "out[i] = b ? b->f(out[i]) : 0;\ndelete b;" % (p, p, p))
        else:
            body = ("%sD1 d1(i);\n%sD2 d2;\n%sBase *b = (out[i] & 1) ? (%sBase *)&d1 : (%sBase *)&d2;\n"
                    "out[i] = b->f(out[i]);" % (p, p, p, p, p))
        it.kernel(u, "%skern%d" % (p, u.index), body)


def feat_recursion(it):
    """Self recursion, and mutual recursion across two units."""
    p, us = it.p, it.units
    us[0].add("__device__ int %sfib(int n) { return n < 2 ? n : %sfib(n - 1) + %sfib(n - 2); }" % (p, p, p))
    a, b = us[0], us[-1]
    if a is b:
        a.add("__device__ int %sodd(int n);\n__device__ int %seven(int n) { return n == 0 ? 1 : %sodd(n - 1); }\n"
              "__device__ int %sodd(int n) { return n == 0 ? 0 : %seven(n - 1); }" % (p, p, p, p, p))
    else:
        a.add("__device__ int %sodd(int n);\n__device__ int %seven(int n) { return n == 0 ? 1 : %sodd(n - 1); }"
              % (p, p, p))
        b.add("__device__ int %seven(int n);\n__device__ int %sodd(int n) { return n == 0 ? 0 : %seven(n - 1); }"
              % (p, p, p))
    a.add("__device__ int %sodd(int n);" % p)
    it.kernel(a, p + "kern", "out[i] = %sfib(out[i] & 15) + %sodd(out[i] & 31);" % (p, p))


def feat_switch(it):
    """Dense switch with many cases (jump table in .nv.constant2)."""
    p, r = it.p, it.rng
    u = it.units[0]
    n = r.randint(6, 40)
    ops = ["return x * %d;", "return x + %d;", "return x ^ %d;", "return (x >> 1) - %d;", "x += %d; break;"]
    cases = "\n".join("    case %d: %s" % (j, r.choice(ops) % r.randint(1, 999)) for j in range(n))
    u.add("__device__ %sint %ssw(int s, int x)\n{\n    switch (s) {\n%s\n    default: return -1;\n    }\n    return x;\n}"
          % (noinline(r), p, cases))
    it.kernel(u, p + "kern", "out[i] = %ssw(out[i] %% %d, i);" % (p, n + 2))


def feat_math(it):
    """libdevice math: pow, sin, exp, ... in float and double."""
    p, r = it.p, it.rng
    u = it.units[0]
    fns = r.sample(["pow(x, y)", "sin(x)", "exp(x)", "log(x + 2)", "tgamma(x)", "erf(x)", "atan2(x, y)",
                    "cbrt(x)", "sinpi(x)", "fmod(x, y + 1)"], r.randint(1, 4))
    for t, suffix in (("double", ""), ("float", "f")):
        exprs = " + ".join(f.replace("(", suffix + "(", 1) for f in fns)
        u.add("__device__ %s%s %smath_%s(%s x, %s y) { return %s; }" % (noinline(r), t, p, t, t, t, exprs))
    it.kernel(u, p + "kern", "out[i] = (int)(%smath_double(out[i] * 0.5, i) + %smath_float(out[i] * 0.25f, i));"
              % (p, p))


def feat_cdp(it):
    """Device-side kernel launch (dynamic parallelism: needs cudadevrt)."""
    p, us = it.p, it.units
    it.needs_devrt = True
    child_u, parent_u = us[-1], us[0]
    it.kernel(child_u, p + "child", "out[i] += 1;", launch=False)
    if child_u is not parent_u:
        parent_u.add("__global__ void %schild(int *out);" % p)
    it.kernel(parent_u, p + "parent",
              "if (i == 0) {\n    %schild<<<1, 32>>>(out);\n    out[1] = (int)cudaGetLastError();\n}" % p)


def feat_libc(it):
    """printf, malloc/free and assert in device code."""
    p, r = it.p, it.rng
    u = it.units[0]
    u.includes.update(["<cstdio>", "<cassert>"])
    parts = r.sample(["printf(\"%s %%d %%f\\n\", out[i], (double)i);" % p,
                      "int *m = (int *)malloc(%d * sizeof(int));\nif (m) { m[0] = i; out[i] = m[0]; free(m); }"
                      % r.randint(1, 64),
                      "assert(out[i] >= 0);"], r.randint(1, 3))
    it.kernel(u, p + "kern", "\n".join(parts))


def feat_atomics(it):
    """Atomics on globals and shared memory."""
    p, r = it.p, it.rng
    u = it.units[0]
    u.add("__device__ int %sacnt;\n__device__ double %sasum;\n__device__ unsigned long long %samax;" % (p, p, p))
    ops = ["atomicAdd(&%sacnt, out[i]);", "atomicAdd(&%sasum, (double)out[i]);",
           "atomicMax(&%samax, (unsigned long long)out[i]);", "atomicCAS(&%sacnt, out[i], i);",
           "atomicExch(&sh, out[i]);", "atomicAdd_block(&sh, 1);", "__threadfence();"]
    body = "__shared__ int sh;\n" + "\n".join(o.replace("%s", p) for o in r.sample(ops, r.randint(2, 5)))
    it.kernel(u, p + "kern", body + "\n__syncthreads();\nout[i] = sh;")


def feat_warp(it):
    """Warp intrinsics; __reduce_add_sync guarded for sm_80+."""
    p, r = it.p, it.rng
    u = it.units[0]
    ops = r.sample(["v += __shfl_sync(0xffffffffu, v, 3);", "v += __shfl_down_sync(0xffffffffu, v, 1);",
                    "v += __popc(__ballot_sync(0xffffffffu, v & 1));", "v += __any_sync(0xffffffffu, v > 7);",
                    "v += (int)__activemask();", "v += __popc(__match_any_sync(0xffffffffu, v));",
                    "#if __CUDA_ARCH__ >= 800\nv += __reduce_add_sync(0xffffffffu, v);\n#endif"], r.randint(2, 5))
    u.add("__device__ %sint %swarp(int v)\n{\n%s\n    return v;\n}" % (noinline(r), p, indent("\n".join(ops))))
    it.kernel(u, p + "kern", "out[i] = %swarp(out[i]);" % p)


def feat_coop(it):
    """cooperative_groups grid sync and tiled partitions (kernel not launched from host)."""
    p, us = it.p, it.units
    for u in us:
        u.includes.add("<cooperative_groups.h>")
    us[-1].add("__device__ __noinline__ void %sphase(int *d)\n{\n    namespace cg = cooperative_groups;\n"
               "    cg::grid_group g = cg::this_grid();\n    d[g.thread_rank() %% 64] += 1;\n    g.sync();\n}" % p)
    if us[0] is not us[-1]:
        us[0].add("__device__ void %sphase(int *d);" % p)
    it.kernel(us[0], p + "kern",
              "namespace cg = cooperative_groups;\ncg::thread_block_tile<32> t = cg::tiled_partition<32>(cg::this_thread_block());\n"
              "out[i] = t.shfl(out[i], 0);\ncg::this_grid().sync();\n%sphase(out);" % p, launch=False)


def feat_statics(it):
    """Same-name static functions and variables, different bodies per unit."""
    p, r = it.p, it.rng
    for u in it.units:
        k = it.consts(2)
        u.add("static __device__ int %ssv = %d;\nstatic __device__ __noinline__ int %ssf(int x) { return x * %d + %ssv; }\n"
              "namespace {\n__device__ __noinline__ int %sanon(int x) { return x - %d; }\n}"
              % (p, k[0], p, k[1], p, p, r.randint(1, 99)))
        it.kernel(u, "%skern%d" % (p, u.index), "out[i] = %ssf(out[i]) + %sanon(i);" % (p, p))


def feat_weak_strong(it):
    """A strong definition in one unit, an identical inline (weak) one in another."""
    p, us = it.p, it.units
    k = it.rng.randint(2, 99)
    us[0].add("__device__ __noinline__ int %spick(int x) { return x * %d + 1; }" % (p, k))
    for u in us[1:]:
        u.add("inline __device__ __noinline__ int %spick(int x) { return x * %d + 1; }" % (p, k))
    for u in us:
        it.kernel(u, "%skern%d" % (p, u.index), "out[i] = %spick(out[i]);" % p)


def feat_dead(it):
    """Unreferenced device functions and kernels nobody launches."""
    p, r = it.p, it.rng
    u = it.units[0]
    u.add("__device__ __noinline__ int %sunused(int x) { return x * %d; }\n"
          "__device__ __noinline__ int %sunused_caller(int x) { return %sunused(x) + 1; }"
          % (p, r.randint(2, 99), p, p))
    it.kernel(u, p + "kern_never", "out[i] = %sunused_caller(i);" % p, launch=False)


def feat_many_kernels(it):
    """Several kernels in one unit sharing one device function."""
    p, r = it.p, it.rng
    u = it.units[0]
    u.add("__device__ %sint %sshared_fn(int x) { return x * x + %d; }" % (noinline(r), p, r.randint(1, 9)))
    for j in range(r.randint(2, 6)):
        it.kernel(u, "%sk%d" % (p, j), "out[i] = %sshared_fn(out[i] + %d);" % (p, j), launch=r.random() < 0.5)


def feat_many_params(it):
    """Many scalar parameters and an early return: some parameters are read
    only after it. More loads than scoreboard barriers at the kernel's start
    (sm_100+: ptxas shares barriers, nvlink re-derives them)."""
    p, r = it.p, it.rng
    u = it.units[0]
    n = r.randint(6, 12)
    params = [(r.choice(["int", "long long"]), str(r.randint(1, 99))) for _ in range(n)]
    early = r.sample(range(n), r.randint(2, n - 2))
    late = [j for j in range(n) if j not in early]
    bound = " + ".join("a%d * %d" % (j, r.randint(2, 9)) for j in early)
    use = " + ".join("a%d * i" % j for j in late)
    it.kernel(u, p + "kern", "long long e = %s;\nif (i >= e) return;\nout[i] = (int)(i * %d + %s);"
              % (bound, r.randint(2, 9), use), params=params)


# name: (function, min units, max units, weight)
FEATURES = {
    "xcall": (feat_xcall, 2, 3, 4),
    "template": (feat_template, 2, 4, 3),
    "inline_var": (feat_inline_var, 2, 4, 2),
    "globals": (feat_globals, 1, 3, 3),
    "static_shared": (feat_static_shared, 1, 3, 2),
    "extern_shared": (feat_extern_shared, 1, 2, 2),
    "tmpl_shared": (feat_tmpl_shared, 1, 3, 2),
    "spill": (feat_spill, 1, 1, 2),
    "fptr": (feat_fptr, 1, 2, 3),
    "virtual": (feat_virtual, 1, 2, 2),
    "recursion": (feat_recursion, 1, 2, 2),
    "switch": (feat_switch, 1, 1, 2),
    "math": (feat_math, 1, 1, 2),
    "cdp": (feat_cdp, 1, 2, 1),
    "libc": (feat_libc, 1, 1, 2),
    "atomics": (feat_atomics, 1, 1, 2),
    "warp": (feat_warp, 1, 1, 2),
    "coop": (feat_coop, 1, 2, 1),
    "statics": (feat_statics, 2, 4, 2),
    "weak_strong": (feat_weak_strong, 2, 3, 1),
    "dead": (feat_dead, 1, 1, 1),
    "many_kernels": (feat_many_kernels, 1, 1, 1),
    "many_params": (feat_many_params, 1, 1, 2),
}


def make_plan(seed):
    """The random plan for a seed: 2-4 units, 3-9 feature items, maybe a main()."""
    r = random.Random("plan:%d" % seed)
    ntu = r.randint(2, MAX_TUS)
    names = list(FEATURES)
    weights = [FEATURES[n][3] for n in names]
    items = []
    for ident in range(r.randint(3, 9)):
        name = r.choices(names, weights)[0]
        lo, hi = FEATURES[name][1:3]
        k = r.randint(min(lo, ntu), min(hi, ntu))
        items.append({"id": ident, "feature": name, "tus": r.sample(range(ntu), k), "seed": seed})
    main_tu = r.randrange(ntu) if r.random() < 0.6 else None
    return {"seed": seed, "ntu": ntu, "main_tu": main_tu, "items": items}


def host_main(unit):
    """A host main() launching the kernels its unit registered."""
    launches = "\n".join("    %s<<<1, 32, %d>>>(buf%s);" % (k, shmem, args) for k, shmem, args in unit.launches)
    return ("int main()\n{\n    int *buf = nullptr;\n    cudaMalloc(&buf, 4096 * sizeof(int));\n%s\n"
            "    cudaDeviceSynchronize();\n    cudaFree(buf);\n    return 0;\n}" % launches)


def render_units(plan):
    """The plan's units with its items rendered into them, and whether the
    program needs the device runtime."""
    units = [Unit(i) for i in range(plan["ntu"])]
    needs_devrt = False
    for pi in plan["items"]:
        fn, lo = FEATURES[pi["feature"]][:2]
        if len(pi["tus"]) < min(lo, plan["ntu"]):
            continue
        item = Item(pi, units)
        fn(item)
        needs_devrt |= item.needs_devrt
    return units, needs_devrt


def unit_files(plan, units, main_tu):
    """{file name: text} of the units, with a host main in `main_tu`. Empty
    units are left out."""
    files = {}
    for u in units:
        if main_tu == u.index:
            u.add(host_main(u))
        if not u.blocks:
            continue
        head = "".join("#include %s\n" % inc for inc in sorted(u.includes))
        files[u.name] = "// generated by difftest gen.py, seed %d\n%s\n%s\n" % (
            plan["seed"], head, "\n\n".join(u.blocks))
    return files


def render(plan):
    """Sources of a plan: ({file name: text}, needs_devrt)."""
    units, needs_devrt = render_units(plan)
    return unit_files(plan, units, plan["main_tu"]), needs_devrt


def checked_main(units):
    """gpu_main.cu for a run on a GPU: every kernel the units would launch,
    each on a fresh buffer (0, 1, 2, ...), then the launch's error code and a
    hash of the buffer, one line per kernel, so two links of one program can be
    compared by their output."""
    decls, calls = [], []
    for u in units:
        for (name, shmem, args), (_, types) in zip(u.launches, u.signatures):
            decls.append("__global__ void %s(int *out%s);" % (name, "".join(", " + t for t in types)))
            calls.append("    fill(buf);\n    %s<<<1, 32, %d>>>(buf%s);\n    report(\"%s\", buf);"
                         % (name, shmem, args, name))
    return ("// generated by difftest gen.py: every launched kernel, checked\n#include <cstdio>\n\n%s\n\n"
            "static const int N = 4096;\n\n"
            "static void fill(int *buf)\n{\n    static int h[N];\n    for (int j = 0; j < N; ++j) h[j] = j;\n"
            "    cudaMemcpy(buf, h, sizeof h, cudaMemcpyHostToDevice);\n}\n\n"
            "static void report(const char *name, int *buf)\n{\n    int launch = (int)cudaGetLastError();\n"
            "    int sync = (int)cudaDeviceSynchronize();\n    static int h[N];\n"
            "    cudaMemcpy(h, buf, sizeof h, cudaMemcpyDeviceToHost);\n    unsigned long long hash = 1469598103934665603ull;\n"
            "    for (int j = 0; j < N; ++j) hash = (hash ^ (unsigned)h[j]) * 1099511628211ull;\n"
            "    printf(\"%%s launch %%d sync %%d hash %%016llx\\n\", name, launch, sync, hash);\n    fflush(stdout);\n}\n\n"
            "int main()\n{\n    int *buf = nullptr;\n    cudaMalloc(&buf, N * sizeof(int));\n%s\n    cudaFree(buf);\n    return 0;\n}\n"
            % ("\n".join(decls), "\n".join(calls)))


def render_checked(plan):
    """Sources of a plan for a run on a GPU: the plan's units without their
    host main, plus gpu_main.cu (checked_main).  Device code is the same as
    render's."""
    units, needs_devrt = render_units(plan)
    files = unit_files(plan, units, None)
    files["gpu_main.cu"] = checked_main(units)
    return files, needs_devrt


def write_sources(files, directory):
    os.makedirs(directory, exist_ok=True)
    for name, text in files.items():
        with open(os.path.join(directory, name), "w") as f:
            f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("seed", type=int)
    ap.add_argument("--out", help="directory for the .cu files (default: print them)")
    ap.add_argument("--plan", action="store_true", help="print the plan as JSON instead")
    args = ap.parse_args()
    plan = make_plan(args.seed)
    if args.plan:
        json.dump(plan, sys.stdout, indent=1)
        return
    files, devrt = render(plan)
    if args.out:
        write_sources(files, args.out)
    else:
        for name, text in files.items():
            print("=== %s%s\n%s" % (name, " (needs cudadevrt)" if devrt else "", text))


if __name__ == "__main__":
    main()
