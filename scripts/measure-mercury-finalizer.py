#!/usr/bin/env python3
"""Measure culd's sm_100+ scoreboard finaliser against nvlink's.

For each link directory (input *.cubin + nvlink.cubin, e.g. a fixture
directory tests/fixtures/<case>/sm_100) it builds the "pre-finalisation"
image: nvlink.cubin with the control bits (105-127) of every .text
instruction put back from the input function (same instruction count; the
finaliser never touches operand bits, so relocated operands stay nvlink's).
A kernel whose memory-fence placeholders nvlink removed is paired with its
input code as the plugin's rewrite_code hook leaves it (ABI 2.6).
It runs the sm100-mercury plugin's finaliser on that image through the
plugin's C entry point (ctypes) and compares each function's .text with
nvlink's byte for byte. For reference it also scores the study's rule H2
("shift", W3 + H2) on the same images.

    measure-mercury-finalizer.py --plugin build/plugins/libculd-plugin-sm100-mercury.so \\
        [-v] DIR...

Prints, per arch (the directory name sm_XXX) and in total: functions,
functions nvlink changed, exact functions and instructions for culd, H2 and
"copy unchanged"; with -v every miss and its first differing instruction.

With --per-kernel it runs each kernel the finaliser would rewrite alone
instead (every other kernel's stack-pointer load stripped of its barrier,
so W3 leaves it as it is) and prints one line per kernel, DIR KERNEL
EXACT|DIFF|REFUSED [why], then the counts: one refused kernel no longer
hides the rest of its link.
"""
import argparse
import collections
import ctypes
import glob
import os
import struct
import sys

CTRL_LOW = 105
LOWMASK = (1 << CTRL_LOW) - 1
SHT_SYMTAB, SHT_NOBITS, SHT_CUDA_INFO = 2, 8, 0x70000000


# --- ELF -------------------------------------------------------------------

class Elf:
    def __init__(self, raw):
        self.raw = raw
        shoff, = struct.unpack_from("<Q", raw, 0x28)
        shnum, shstrndx = struct.unpack_from("<HH", raw, 0x3c)
        self.secs = [struct.unpack_from("<IIQQQQIIQQ", raw, shoff + i * 64) for i in range(shnum)]
        strtab = self.secs[shstrndx]
        self.names = [self._str(strtab, s[0]) for s in self.secs]

    def _str(self, sec, off):
        base = sec[4] + off
        return self.raw[base:self.raw.index(b"\0", base)].decode()

    def data(self, i):
        s = self.secs[i]
        return self.raw[s[4]:s[4] + s[5]] if s[1] != SHT_NOBITS else b""

    def texts(self):
        """{function: (offset, size)} of every .text.<f>."""
        return {n[len(".text."):]: (s[4], s[5]) for n, s in zip(self.names, self.secs)
                if n.startswith(".text.")}

    def symbols(self):
        for i, s in enumerate(self.secs):
            if s[1] == SHT_SYMTAB:
                d = self.data(i)
                for off in range(0, len(d), 24):
                    nm, info, other, shndx, _, _ = struct.unpack_from("<IBBHQQ", d, off)
                    yield off // 24, self._str(self.secs[s[6]], nm), info, other, shndx

    def min_stack_sizes(self):
        out = {}
        for i, n in enumerate(self.names):
            if n != ".nv.info" or self.secs[i][1] != SHT_CUDA_INFO:
                continue
            d, p = self.data(i), 0
            while p + 4 <= len(d):
                fmt, code, ln = d[p], d[p + 1], struct.unpack_from("<H", d, p + 2)[0]
                p += 4
                if fmt == 4:
                    if code == 0x12:
                        sym, val = struct.unpack_from("<II", d, p)
                        out[sym] = val
                    p += ln
        return out


def words(b):
    return [int.from_bytes(b[i:i + 16], "little") for i in range(0, len(b), 16)]


def field(w, lo, n):
    return (w >> lo) & ((1 << n) - 1)


def setf(w, lo, n, v):
    m = ((1 << n) - 1) << lo
    return (w & ~m) | (v << lo)


# --- the study's rule H2, for comparison --------------------------------------

def is_r1_load(w):
    return (w & 0xfff) == 0xb82 and field(w, 16, 8) == 1 and field(w, 32, 16) == 0xdf00


def h2(a):
    a = list(a)
    p0 = next((i for i, w in enumerate(a) if is_r1_load(w)), None)
    if p0 is None or field(a[p0], 110, 3) == 7:
        return a
    b0 = field(a[p0], 110, 3)
    end = next((j for j in range(p0 + 1, len(a)) if field(a[j], 116, 6) >> b0 & 1), len(a) - 1)
    a[p0] = setf(a[p0], 110, 3, 7)
    for j in range(p0 + 1, end + 1):
        w = a[j]
        for lo in (110, 113):
            b = field(w, lo, 3)
            if b != 7 and b > b0:
                w = setf(w, lo, 3, b - 1)
        m = field(w, 116, 6)
        a[j] = setf(w, 116, 6, (m & ((1 << b0) - 1)) | (m >> (b0 + 1)) << b0)
    return a


def w3_kernels(elf):
    """Kernels W3 lets the finaliser touch (minus the no-CALL test)."""
    mss = elf.min_stack_sizes()
    return {name for idx, name, info, other, _ in elf.symbols()
            if info & 0xf == 2 and other & 0x10 and mss.get(idx) == 0}


# --- the plugin ------------------------------------------------------------

REPORT = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_uint32, ctypes.c_char_p)
GROW = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint64)


class Host(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("link_flags", ctypes.c_uint32),
                ("opaque", ctypes.c_void_p), ("report", REPORT)]


class Buffer(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("reserved", ctypes.c_uint32),
                ("opaque", ctypes.c_void_p), ("grow", GROW)]


FINALIZE = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.POINTER(Host), ctypes.c_uint32,
                            ctypes.c_char_p, ctypes.c_uint64, ctypes.POINTER(Buffer))


REWRITE = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.POINTER(Host), ctypes.c_uint32,
                           ctypes.c_char_p, ctypes.c_uint64, ctypes.c_char_p, ctypes.c_uint64,
                           ctypes.c_uint32, ctypes.POINTER(Buffer), ctypes.POINTER(Buffer),
                           ctypes.POINTER(Buffer))
CODE_F_ENTRY = 1


class Descriptor(ctypes.Structure):
    _fields_ = [("abi_major", ctypes.c_uint32), ("abi_minor", ctypes.c_uint32),
                ("struct_size", ctypes.c_uint32), ("reserved0", ctypes.c_uint32),
                ("name", ctypes.c_char_p), ("version", ctypes.c_char_p),
                ("archs", ctypes.c_void_p), ("num_archs", ctypes.c_uint32),
                ("arch_info_size", ctypes.c_uint32),
                ("relocs", ctypes.c_void_p), ("num_relocs", ctypes.c_uint32),
                ("reloc_desc_size", ctypes.c_uint32),
                ("apply_relocations", ctypes.c_void_p), ("eiattr_policy", ctypes.c_void_p),
                ("compat_policy", ctypes.c_void_p), ("classify_mercury_section", ctypes.c_void_p),
                ("finalize", FINALIZE), ("mercury_twin", ctypes.c_void_p),
                ("capsule_field", ctypes.c_void_p), ("fastpath_clears", ctypes.c_void_p),
                ("rewrite_code", REWRITE)]


class Finaliser:
    def __init__(self, path):
        lib = ctypes.CDLL(os.path.abspath(path))
        entry = lib.culd_plugin_entry
        entry.restype = ctypes.POINTER(Descriptor)
        entry.argtypes = [ctypes.c_uint32, ctypes.c_uint32]
        self.desc = entry(2, 6).contents
        self.errors = []
        self.out = None
        self._report = REPORT(lambda _o, level, msg: self.errors.append(msg.decode())
                              if level >= 3 else None)
        self._grow = GROW(self._do_grow)

    def _do_grow(self, _opaque, size):
        self.out = ctypes.create_string_buffer(size)
        return ctypes.addressof(self.out)

    def rewrite(self, sm, code, entry):
        """A function's code as rewrite_code leaves it (the input when kept)."""
        if not entry or self.desc.abi_minor < 6 or not self.desc.rewrite_code:
            return code
        host = Host(ctypes.sizeof(Host), 0, None, self._report)
        outs = {}

        def grower(key):
            def grow(_opaque, size):
                outs[key] = ctypes.create_string_buffer(size)
                return ctypes.addressof(outs[key])
            return GROW(grow)
        growers = [grower(k) for k in ("code", "removed", "shadow")]
        bufs = [Buffer(ctypes.sizeof(Buffer), 0, None, g) for g in growers]
        self.errors = []
        rc = self.desc.rewrite_code(ctypes.byref(host), sm, code, len(code), None, 0,
                                    CODE_F_ENTRY, *(ctypes.byref(b) for b in bufs))
        if rc == 1:
            return code
        if rc != 0:
            raise RuntimeError("; ".join(self.errors) or "rewrite_code failed (rc %d)" % rc)
        return outs["code"].raw

    def run(self, sm, image, flags=0):
        """The finalised image, or None when the finaliser left it as is."""
        host = Host(ctypes.sizeof(Host), flags, None, self._report)
        buf = Buffer(ctypes.sizeof(Buffer), 0, None, self._grow)
        self.errors, self.out = [], None
        rc = self.desc.finalize(ctypes.byref(host), sm, image, len(image), ctypes.byref(buf))
        if rc == 1:
            return None
        if rc != 0:
            raise RuntimeError("; ".join(self.errors) or "finaliser failed (rc %d)" % rc)
        return self.out.raw


# --- measurement -------------------------------------------------------------

def pre_image(out, inputs, fin, sm):
    """nvlink's output with the inputs' control bits; functions compared."""
    raw = bytearray(out.raw)
    funcs = []
    kernels = {name for _, name, info, other, _ in out.symbols() if info & 0xf == 2 and other & 0x10}
    for name, (off, size) in out.texts().items():
        src = [(e, e.texts()[name]) for e in inputs if name in e.texts()]
        if len(src) != 1:
            continue
        e, (ioff, isize) = src[0]
        code = fin.rewrite(sm, e.raw[ioff:ioff + isize], name in kernels)
        if len(code) != size:
            continue
        a = words(code)
        b = words(out.raw[off:off + size])
        mixed = [(x & ~LOWMASK) | (y & LOWMASK) for x, y in zip(a, b)]
        raw[off:off + size] = b"".join(w.to_bytes(16, "little") for w in mixed)
        funcs.append((name, off, size))
    return bytes(raw), funcs


def measure(dirs, plugin, verbose):
    fin = Finaliser(plugin)
    totals = collections.defaultdict(collections.Counter)
    for d in dirs:
        out_path = os.path.join(d, "nvlink.cubin")
        if not os.path.exists(out_path):
            continue
        arch = os.path.basename(os.path.normpath(d)) if os.path.basename(
            os.path.normpath(d)).startswith("sm_") else os.path.basename(os.path.dirname(
                os.path.normpath(d)))
        sm = int("".join(ch for ch in arch[3:] if ch.isdigit()))
        out = Elf(open(out_path, "rb").read())
        inputs = [Elf(open(p, "rb").read()) for p in sorted(glob.glob(os.path.join(d, "*.cubin")))
                  if os.path.basename(p) not in ("nvlink.cubin", "wp.cubin")]
        pre, funcs = pre_image(out, inputs, fin, sm)
        try:
            got = fin.run(sm, pre) or pre
        except RuntimeError as e:
            print("ERROR", d, e)
            totals[arch]["link_errors"] += 1
            continue
        w3 = w3_kernels(Elf(pre))
        for name, off, size in funcs:
            a, b, c = words(pre[off:off + size]), words(out.raw[off:off + size]), words(got[off:off + size])
            hp = h2(a) if name in w3 and not any((x & 0x1ff) in (0x143, 0x144) for x in a) else a
            t = totals[arch]
            t["functions"] += 1
            t["instructions"] += len(a)
            changed = a != b
            t["nvlink_changed"] += changed
            t["culd_exact"] += c == b
            t["h2_exact"] += hp == b
            t["copy_exact"] += a == b
            if changed:
                t["changed_culd_exact"] += c == b
                t["changed_h2_exact"] += hp == b
            t["culd_insn_exact"] += sum(x == y for x, y in zip(c, b))
            t["h2_insn_exact"] += sum(x == y for x, y in zip(hp, b))
            t["copy_insn_exact"] += sum(x == y for x, y in zip(a, b))
            if c != b:
                first = next(i for i, (x, y) in enumerate(zip(c, b)) if x != y)
                print("MISS %s %s first diff at insn %d (op %03x)%s" % (
                    d, name, first, b[first] & 0xfff, "" if changed else " [nvlink left it unchanged]"))
                if verbose:
                    for i, (x, y, z) in enumerate(zip(a, b, c)):
                        if x != y or y != z:
                            print("   %4d op=%03x in=%06x nvlink=%06x culd=%06x" % (
                                i, x & 0xfff, x >> 105, y >> 105, z >> 105))
    grand = collections.Counter()
    for arch in sorted(totals):
        report(arch, totals[arch])
        grand.update(totals[arch])
    report("total", grand)


def alone(image, funcs, name):
    """image with every kernel but `name` stripped of its stack-pointer
    load's barrier, so the finaliser rewrites `name` alone."""
    img = bytearray(image)
    for other, off, size in funcs:
        if other == name:
            continue
        for k, w in enumerate(words(img[off:off + size])):
            if is_r1_load(w):
                at = off + k * 16
                img[at:at + 16] = setf(w, 110, 3, 7).to_bytes(16, "little")
                break
    return bytes(img)


def measure_per_kernel(dirs, plugin):
    fin = Finaliser(plugin)
    totals = collections.Counter()
    for d in dirs:
        out_path = os.path.join(d, "nvlink.cubin")
        if not os.path.exists(out_path):
            continue
        base = os.path.basename(os.path.normpath(d))
        arch = base if base.startswith("sm_") else os.path.basename(
            os.path.dirname(os.path.normpath(d)))
        sm = int("".join(ch for ch in arch[3:] if ch.isdigit()))
        out = Elf(open(out_path, "rb").read())
        inputs = [Elf(open(p, "rb").read()) for p in sorted(glob.glob(os.path.join(d, "*.cubin")))
                  if os.path.basename(p) not in ("nvlink.cubin", "wp.cubin")]
        try:
            pre, funcs = pre_image(out, inputs, fin, sm)
        except RuntimeError as e:
            print(d, "*", "REFUSED", e)
            totals["REFUSED"] += 1
            continue
        w3 = w3_kernels(Elf(pre))
        for name, off, size in funcs:
            if name not in w3:
                continue
            img = alone(pre, funcs, name)
            try:
                got = fin.run(sm, img) or img
            except RuntimeError as e:
                print(d, name, "REFUSED", str(e).split("': ", 1)[-1])
                totals["REFUSED"] += 1
                continue
            verdict = "EXACT" if got[off:off + size] == out.raw[off:off + size] else "DIFF"
            print(d, name, verdict)
            totals[verdict] += 1
    print("kernels: %d exact, %d different, %d refused" % (
        totals["EXACT"], totals["DIFF"], totals["REFUSED"]))


def report(label, t):
    def pct(a, b):
        return "%d/%d (%.1f %%)" % (a, b, 100.0 * a / b) if b else "0/0"
    print("%s: %d functions, %d changed by nvlink" % (label, t["functions"], t["nvlink_changed"]))
    for rule in ("culd", "h2", "copy"):
        line = "  %-4s functions %s, instructions %s" % (
            rule, pct(t[rule + "_exact"], t["functions"]),
            pct(t[rule + "_insn_exact"], t["instructions"]))
        if rule != "copy":
            line += ", changed functions %s" % pct(t["changed_%s_exact" % rule], t["nvlink_changed"])
        print(line)
    if t["link_errors"]:
        print("  finaliser errors: %d links" % t["link_errors"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--plugin", required=True, help="libculd-plugin-sm100-mercury.so")
    ap.add_argument("-v", action="store_true", help="print the differing control words")
    ap.add_argument("--per-kernel", action="store_true",
                    help="finalise each kernel alone and print a verdict per kernel")
    ap.add_argument("dirs", nargs="+")
    args = ap.parse_args()
    if args.per_kernel:
        measure_per_kernel(args.dirs, args.plugin)
    else:
        measure(args.dirs, args.plugin, args.v)


if __name__ == "__main__":
    sys.exit(main())
