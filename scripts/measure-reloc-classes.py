#!/usr/bin/env python3
"""Measure which relocation types a device linker accepts for a target.

Takes a relocatable cubin, rewrites the type of one relocation entry (the
low 32 bits of r_info) to every type in a range, links each variant with the
other inputs, and prints one line per type:

    <type> <verdict> <rc> <first diagnostic line>

verdict is `ok` (exit 0, no diagnostic), `warn` (exit 0 with a diagnostic),
`class` (the diagnostic says "not supported on": an architecture-class
refusal) or `other` (any other failure, e.g. "unexpected reloc").

Example (one code relocation of main.cubin, linked for sm_75):
    measure-reloc-classes.py --linker nvlink --arch sm_75 \\
        --patch main.cubin --section .rel.text._Z5applyPfPKfi --index 0 \\
        --types 0-120 lib.cubin

Run it per arch with cubins compiled for that arch, then compare the columns.
"""
import argparse
import os
import struct
import subprocess
import sys
import tempfile


def section_headers(elf):
    if elf[:4] != b"\x7fELF" or elf[4] != 2 or elf[5] != 1:
        sys.exit("not a little-endian ELF64 file")
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x3A)
    headers = []
    for i in range(shnum):
        name, stype, _flags, _addr, off, size, _link, _info, _align, entsize = \
            struct.unpack_from("<IIQQQQIIQQ", elf, shoff + i * shentsize)
        headers.append((name, stype, off, size, entsize))
    stroff = headers[shstrndx][2]

    def name_of(n):
        end = elf.index(b"\0", stroff + n)
        return elf[stroff + n:end].decode()

    return [(name_of(h[0]),) + h[1:] for h in headers]


def r_info_offset(elf, section, index):
    for name, stype, off, size, entsize in section_headers(elf):
        if name != section:
            continue
        if stype not in (4, 9):  # SHT_RELA, SHT_REL
            sys.exit(f"{section} is not a relocation section")
        if index >= size // entsize:
            sys.exit(f"{section} has only {size // entsize} entries")
        return off + index * entsize + 8  # r_offset, then r_info
    sys.exit(f"no section {section}")


def parse_range(text):
    lo, _, hi = text.partition("-")
    return range(int(lo, 0), int(hi or lo, 0) + 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--linker", default="nvlink", help="linker command")
    ap.add_argument("--arch", required=True, help="target, e.g. sm_75")
    ap.add_argument("--patch", required=True, help="cubin whose relocation is rewritten")
    ap.add_argument("--section", required=True, help="relocation section name")
    ap.add_argument("--index", type=int, default=0, help="entry within the section")
    ap.add_argument("--types", type=parse_range, default=parse_range("0-120"))
    ap.add_argument("inputs", nargs="*", help="other inputs of the link")
    args = ap.parse_args()

    original = bytearray(open(args.patch, "rb").read())
    at = r_info_offset(original, args.section, args.index)
    with tempfile.TemporaryDirectory() as tmp:
        patched_path = os.path.join(tmp, os.path.basename(args.patch))
        out_path = os.path.join(tmp, "out.cubin")
        for rtype in args.types:
            patched = bytearray(original)
            struct.pack_into("<I", patched, at, rtype)
            with open(patched_path, "wb") as f:
                f.write(patched)
            cmd = args.linker.split() + [f"-arch={args.arch}", patched_path] + \
                args.inputs + ["-o", out_path]
            run = subprocess.run(cmd, capture_output=True, text=True)
            lines = [l for l in (run.stderr + run.stdout).splitlines() if l.strip()]
            refusals = [l for l in lines if "not supported on" in l]
            first = (refusals or lines or [""])[0].replace(tmp + "/", "")
            if refusals:
                verdict = "class"
            elif run.returncode != 0:
                verdict = "other"
            else:
                verdict = "warn" if lines else "ok"
            print(f"{rtype} {verdict} {run.returncode} {first}", flush=True)


if __name__ == "__main__":
    main()
