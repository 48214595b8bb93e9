#!/usr/bin/env python3
"""Writes variant SEED of libcudadevrt's memcpy_3d_device<unsigned long, 0,
0, 0> entry as PTX for ARCH, kernel name vSEED: the entry's compute_121 PTX
(read from the toolkit's libcudadevrt.a, whose fatbin carries it) with its
parameter loads shuffled, up to four more 64-bit parameters read and used
before or after the bounds check, up to three more integer operations in
the bounds check, and the three block-index reads reordered. Its bounds
check becomes a conditional `@P EXIT` that a parameter load forced onto
the stack-pointer load's scoreboard barrier is first read past.

usage: gen-exit-variants.py SEED ARCH > vSEED.ptx
       (CUDA 13.0 under $CUDA, default /usr/local/cuda; zstd on PATH)
"""
import os
import random
import re
import struct
import subprocess
import sys
import tempfile

ENTRY = "_Z16memcpy_3d_deviceImLi0ELi0ELi0EEv12MemcpyParamsIT_E"


def library_ptx():
    cuda = os.environ.get("CUDA", "/usr/local/cuda")
    with tempfile.TemporaryDirectory() as work:
        subprocess.run(["ar", "x", os.path.join(cuda, "lib64", "libcudadevrt.a")], cwd=work,
                       check=True)
        for name in sorted(os.listdir(work)):
            raw = open(os.path.join(work, name), "rb").read()
            at = raw.find(struct.pack("<I", 0xBA55ED50))
            while at >= 0:
                _, _, header, size = struct.unpack_from("<IHHQ", raw, at)
                entry, end = at + header, at + header + size
                while entry < end:
                    kind, _, eheader, payload, packed = struct.unpack_from("<HHIQI", raw, entry)
                    flags, = struct.unpack_from("<Q", raw, entry + 40)
                    body = raw[entry + eheader:entry + eheader + payload]
                    if kind == 1:
                        if flags & 0x8000:
                            body = subprocess.run(["zstd", "-d", "-c"],
                                                  input=body[:packed] if packed else body,
                                                  capture_output=True, check=True).stdout
                        return body.rstrip(b"\0").decode()
                    entry += eheader + payload
                at = raw.find(struct.pack("<I", 0xBA55ED50), end)
    sys.exit("no PTX in libcudadevrt.a")


def entry_body(ptx):
    """The entry's definition (its declarations open `.entry NAME` and a
    line break), and its full name."""
    match = re.search(r"\.entry (\S+%s)\(" % ENTRY, ptx)
    start = match.start()
    return match.group(1), ptx[start:ptx.index("\n}\n", start) + 3]


def variant(seed, arch):
    random.seed(seed)
    name, body = entry_body(library_ptx())
    kernel = "v%d" % seed
    src = (".version 9.0\n.target sm_100\n.address_size 64\n\n.visible " +
           body.replace(name, kernel))
    lines = src.split("\n")
    param = kernel + "_param_0"
    loads = [i for i, l in enumerate(lines) if l.startswith("ld.param")]
    block = [lines[i] for i in loads]
    random.shuffle(block)
    before, after = [], []
    offsets = random.sample([96, 104, 112, 120], random.randint(0, 4))
    for k, offset in enumerate(offsets):
        reg = "%%rd%d" % (90 + k)
        block.insert(random.randint(0, len(block)), "ld.param.u64 %s, [%s+%d];" % (reg, param, offset))
        if random.random() < 0.5:
            before.append(random.choice(["xor.b64 %rd27, %rd27, R;", "add.s64 %rd27, %rd27, R;",
                                         "and.b64 %rd27, %rd27, R;"]).replace("R", reg))
        else:
            after.append(random.choice(["add.s64 %rd4, %rd4, R;",
                                        "xor.b64 %rd5, %rd5, R;"]).replace("R", reg))
    for _ in range(random.randint(0, 3)):
        before.append(random.choice(["mul.hi.u64 %rd27, %rd27, %rd15;", "xor.b64 %rd27, %rd27, %rd18;",
                                     "shl.b64 %rd27, %rd27, 1;", "add.s64 %rd27, %rd27, %rd20;"]))
    out = lines[:loads[0]] + block + lines[loads[-1] + 1:]
    i = out.index("mov.u32 %r19, %ctaid.x;")
    three = out[i:i + 3]
    random.shuffle(three)
    out[i:i + 3] = three
    j = out.index("add.s64 %rd27, %rd26, %rd25;")
    out[j + 1:j + 1] = before
    k = out.index("add.s64 %rd4, %rd33, %rd35;")
    out[k + 1:k + 1] = after
    text = "\n".join(out).replace(".reg .b64 %rd<83>;", ".reg .b64 %rd<100>;")
    return text.replace(".target sm_100", ".target " + arch)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.stdout.write(variant(int(sys.argv[1]), sys.argv[2]))
