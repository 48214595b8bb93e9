#!/usr/bin/env python3
"""Regenerates the generated finaliser samples (see README.md) with CUDA
13.0's nvcc, ptxas and nvlink on PATH: for each warp-shuffle SAMPLE
(dvSEED_K.ARCH), many-parameter one (mpSEED_K.ARCH), fence-and-atomics
one (faSEED_K.ARCH), ordered-atomic one (oaSEED_K.ARCH), special-register
one (srSEED_K.ARCH) or
variable-latency one (vlSEED_K.ARCH; vtSEED_K.ARCH, vdSEED_K.ARCH,
vwSEED_K.ARCH and vrSEED_K.ARCH: its texture, double, warp and
double-registers families, whose kernels are named vlSEED_K too) the seed's file of
gen-warp-shuffle.py, gen-many-params.py, gen-fence-atomics.py,
gen-ordered-atomics.py, gen-special-registers.py or
gen-variable-latency.py, and for a
hand-written one
(NAME.ARCH) its corpus case's source (HAND_WRITTEN), is compiled with
`nvcc -rdc=true -cubin`, for each exit variant (vSEED.ARCH) the PTX of
gen-exit-variants.py with `ptxas -c`; the cubin is linked alone by
nvlink, and the kernel's `.text` is written twice: nvlink's as
SAMPLE.nvlink.text, and the pre-finalisation image (nvlink's instruction
words with ptxas's control bits, as measure-mercury-finalizer.py rebuilds
it) as SAMPLE.ptxas.text.

usage: regen-samples.py [SAMPLE...]   (default: the committed ones)
"""
import difflib
import importlib.util
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
SAMPLES = ["dv49_0.sm_100", "dv105_0.sm_100", "dv95_0.sm_120", "dv192_1.sm_100",
           "dv115_2.sm_100", "dv124_2.sm_120", "mp16_2.sm_100", "mp62_6.sm_100",
           "mp103_7.sm_100",
           "v2.sm_100", "v100.sm_100", "v113.sm_120", "v124.sm_120", "v335.sm_120",
           "v161.sm_100", "sortpairs.sm_100", "texrow.sm_100", "rng.sm_100",
           "dv178_2.sm_100", "dv178_2.sm_120", "dv17_2.sm_120", "k43.sm_100",
           "fa2_2.sm_100", "fa61_2.sm_100", "fa138_2.sm_100", "fa242_2.sm_100",
           "fa184_1.sm_120", "sr21_0.sm_100", "sr64_2.sm_100", "sr41_2.sm_100",
           "sr40_0.sm_100", "sr131_1.sm_100", "sr165_2.sm_100", "sr129_1.sm_100",
           "sr45_0.sm_100", "vt1_1.sm_100", "vt10_0.sm_120", "vt107_1.sm_100", "vt115_0.sm_100",
           "vl106_2.sm_120", "vd4_1.sm_100", "vw87_1.sm_100", "sr221_1.sm_100", "sr165_2.sm_120",
           "sr238_1.sm_100", "sr378_0.sm_100", "sr433_1.sm_120", "vl1168_0.sm_100",
           "sr341_2.sm_100", "vt1029_0.sm_100", "sr634_2.sm_100", "sr821_0.sm_100",
           "sr1878_0.sm_100", "sr415_1.sm_100", "sr928_0.sm_100", "sr2689_2.sm_100",
           "sr3026_0.sm_100", "oa14_2.sm_100", "oa47_1.sm_100", "sr2640_2.sm_100",
           "sr1786_0.sm_100", "sr2800_1.sm_100", "sr3318_0.sm_100", "sr1343_1.sm_100",
           "vr1_2.sm_120", "sr3031_1.sm_100", "sr3281_0.sm_100", "sr3039_0.sm_100",
           "sr3445_2.sm_100", "oa3005_2.sm_100", "sr2432_1.sm_100",
           "sr3201_2.sm_100"]
# Generated samples by name prefix: the generator and the arguments after
# its seed (a family of gen-variable-latency.py, whose kernels are all
# named vlSEED_K).
GENERATED = {"dv": ("gen-warp-shuffle.py", []), "mp": ("gen-many-params.py", []),
             "fa": ("gen-fence-atomics.py", []), "sr": ("gen-special-registers.py", []),
             "vl": ("gen-variable-latency.py", []),
             "vt": ("gen-variable-latency.py", ["texture"]),
             "vd": ("gen-variable-latency.py", ["double"]),
             "vw": ("gen-variable-latency.py", ["warp"]),
             "vr": ("gen-variable-latency.py", ["double-registers"]),
             "oa": ("gen-ordered-atomics.py", [])}
# Hand-written samples: the corpus source each is compiled from.
HAND_WRITTEN = {"sortpairs": "153-forced-share-after-read-barrier/sortpairs.cu",
                "texrow": "161-texture-fetch-long-latency/texrow.cu",
                "rng": "162-curand-init-loop/rng.cu",
                "k43": "164-global-loads-out-of-long-latency-barriers/k43.cu"}


def measure_module():
    path = os.path.join(ROOT, "scripts", "measure-mercury-finalizer.py")
    spec = importlib.util.spec_from_file_location("measure", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compile_sample(kernel, arch, work):
    """The cubin holding `kernel`: a warp-shuffle file through nvcc, an exit
    variant through ptxas."""
    if kernel in HAND_WRITTEN:
        own = os.path.join(ROOT, "tests", "corpus", HAND_WRITTEN[kernel])
        obj = os.path.join(work, "%s.%s.cubin" % (kernel, arch))
        subprocess.run(["nvcc", "-w", "-arch=" + arch, "-rdc=true", "-cubin", "-o", obj, own],
                       check=True)
        return obj
    generated = kernel[:2] in GENERATED
    seed = kernel[2:].split("_")[0] if generated else kernel[1:]
    src = os.path.join(work, ("%s%s.cu" % (kernel[:2], seed)) if generated else "v%s.ptx" % seed)
    generator, family = GENERATED.get(kernel[:2], ("gen-exit-variants.py", []))
    with open(src, "w") as f:
        subprocess.run([sys.executable, os.path.join(HERE, generator), seed] +
                       ([] if generated else [arch]) + family, stdout=f, check=True)
    obj = os.path.join(work, "%s.%s.cubin" % (kernel, arch))
    if generated:
        subprocess.run(["nvcc", "-w", "-arch=" + arch, "-rdc=true", "-cubin", "-o", obj, src],
                       check=True)
    else:
        subprocess.run(["ptxas", "-arch=" + arch, "-c", "-o", obj, src], check=True)
    return obj


def instruction_key(word):
    """An instruction without its control bits, and without the target of a
    BRA or BSSY, which moves when nvlink removes instructions."""
    lo, hi = word & ((1 << 64) - 1), word >> 64
    if lo & 0xfff in (0x947, 0x547, 0x945):
        lo &= 0xffff
    return lo, hi & ((1 << 41) - 1)


def ptxas_words_kept(ptxas, nvlink, sample):
    """ptxas's word for each of nvlink's: the same where nvlink kept the
    code's size; where it removed memory-fence placeholders
    (plugins/sm100-mercury/Fences.cpp), the kept instructions in order, and
    nvlink's own padding NOPs after them."""
    if len(ptxas) == len(nvlink):
        return ptxas
    matcher = difflib.SequenceMatcher(None, [instruction_key(w) for w in ptxas],
                                      [instruction_key(w) for w in nvlink], autojunk=False)
    kept = [None] * len(nvlink)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            kept[j1:j2] = ptxas[i1:i2]
    for j, word in enumerate(nvlink):
        if kept[j] is None:
            if word & 0xfff != 0x918:
                sys.exit("%s: nvlink changed the kernel's code past removing instructions" % sample)
            kept[j] = word  # padding
    return kept


def regenerate(m, sample, work):
    kernel, arch = sample.split(".")
    obj = compile_sample(kernel, arch, work)
    linked = os.path.join(work, "%s.%s.linked.cubin" % (kernel, arch))
    subprocess.run(["nvlink", "-arch=" + arch, obj, "-o", linked], check=True)
    ptxas = m.Elf(open(obj, "rb").read())
    nvlink = m.Elf(open(linked, "rb").read())
    texts = ptxas.texts()
    if GENERATED.get(kernel[:2], ("", []))[1]:  # a family's kernels are vl*
        kernel = "vl" + kernel[2:]
    if kernel not in texts:  # a hand-written file's one kernel
        (kernel,) = texts
    po, ps = texts[kernel]
    no, ns = nvlink.texts()[kernel]
    nv = nvlink.raw[no:no + ns]
    pre = [(a & m.LOWMASK) | (b & ~m.LOWMASK & ((1 << 128) - 1))
           for a, b in zip(m.words(nv), ptxas_words_kept(m.words(ptxas.raw[po:po + ps]),
                                                          m.words(nv), sample))]
    with open(os.path.join(HERE, sample + ".ptxas.text"), "wb") as f:
        f.write(b"".join(w.to_bytes(16, "little") for w in pre))
    with open(os.path.join(HERE, sample + ".nvlink.text"), "wb") as f:
        f.write(nv)


def main():
    m = measure_module()
    with tempfile.TemporaryDirectory() as work:
        for sample in sys.argv[1:] or SAMPLES:
            regenerate(m, sample, work)


if __name__ == "__main__":
    main()
