#!/usr/bin/env python3
"""Differential test: random CUDA programs linked by nvlink and by culd.

For each program (gen.py seed, or a hand-written library program): compile
every unit once with `nvcc -rdc=true -c` for all arches (--keep gives the
per-arch relocatable cubins, the same bytes `nvcc -cubin` makes), then per
arch
  cubin mode: nvlink -arch=<a> tu*.cubin [-L<cuda>/lib64 -lcudadevrt] vs culd
  host mode:  the nvlink command of `nvcc -dlink -dryrun`, rerun as is with
              nvlink and with culd (outputs renamed; the registration files
              compared byte for byte)
  rel mode:   nvlink -arch=<a> -r tu*.cubin vs culd (on request)
  twostep:    each linker's -r output linked again by the same linker, with
              the device runtime when the program needs it (on request)
and compare: the exit statuses must agree (0 vs non-zero), and when both
linked, culd-diff --code-order must say IDENTICAL or EQUIVALENT (the
per-function sections made as code merges in nvlink's order, since the
windows nvlink makes take their addresses in it).  Failures are classified
into signatures and kept in <out>/failures/<signature>/<case>/.

    run.py -n 100 -j 2                 # 100 random programs
    run.py -t 3600 --modes cubin       # for an hour, cubin mode only
    run.py --library                   # the hand-written Thrust/CUB set
    run.py --modes rel,twostep         # relocatable links, and links of them
"""

import argparse
import collections
import concurrent.futures
import json
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

import gen

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DEFAULT_ARCHS = ["sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_90a"]
LINK_TIMEOUT = 300
MAX_KEPT_PER_SIGNATURE = 50


class Tools:
    """Paths of the programs being compared and used."""

    def __init__(self, args):
        self.cuda = args.cuda
        self.nvcc = os.path.join(args.cuda, "bin", "nvcc")
        self.nvlink = os.path.join(args.cuda, "bin", "nvlink")
        self.culd = os.path.abspath(args.culd)
        self.culd_diff = os.path.abspath(args.culd_diff)
        self.devrt_dir = os.path.join(args.cuda, "lib64")


def run_cmd(argv, cwd, timeout=LINK_TIMEOUT):
    """Run argv; (rc, stdout, stderr).  rc is -signal on a signal, 'timeout' on timeout."""
    try:
        p = subprocess.run(argv, cwd=cwd, capture_output=True, timeout=timeout)
        return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return "timeout", "", ""


def gencodes(archs):
    out = []
    for a in archs:
        out += ["-gencode", "arch=compute_%s,code=%s" % (a[3:], a)]
    return out


# --------------------------------------------------------------------------
# Compilation

def compile_program(tools, src, archs, flags):
    """Compile every unit of src/ for all archs.  None on success, else the error text."""
    keep = os.path.join(src, "keep")
    os.makedirs(keep, exist_ok=True)
    for cu in sorted(f for f in os.listdir(src) if f.endswith(".cu")):
        stem = cu[:-3]
        argv = [tools.nvcc, "-rdc=true", "-c"] + gencodes(archs) + flags + \
            [cu, "-o", stem + ".o", "--keep", "--keep-dir", "keep"]
        rc, out, err = run_cmd(argv, src, timeout=900)
        if rc != 0:
            return "%s\n%s%s" % (shlex.join(argv), out, err)
        for a in archs:
            kept = os.path.join(keep, "%s.compute_%s.cubin" % (stem, a[3:]))
            if not os.path.exists(kept):  # fall back to a separate -cubin compile
                argv = [tools.nvcc, "-rdc=true", "-cubin", "-arch=" + a] + flags + [cu, "-o", kept]
                rc, out, err = run_cmd(argv, src, timeout=900)
                if rc != 0:
                    return "%s\n%s%s" % (shlex.join(argv), out, err)
            shutil.copy(kept, os.path.join(src, "%s.%s.cubin" % (stem, a)))
    shutil.rmtree(keep)
    return None


def units(src):
    return sorted(f[:-3] for f in os.listdir(src) if f.endswith(".cu"))


# --------------------------------------------------------------------------
# Link commands

def cubin_link_args(tools, src, arch, devrt, link_dir):
    """nvlink arguments for cubin mode (argv without argv0 and -o); inputs copied to link_dir."""
    inputs = []
    for stem in units(src):
        name = stem + ".cubin"
        shutil.copy(os.path.join(src, "%s.%s.cubin" % (stem, arch)), os.path.join(link_dir, name))
        inputs.append(name)
    args = ["-arch=" + arch] + inputs
    if devrt:
        args += ["-L" + tools.devrt_dir, "-lcudadevrt"]
    return args


def host_link_commands(tools, src, archs, flags):
    """{arch: nvlink argv (without argv0)} from `nvcc -dlink -dryrun` on the host objects."""
    objs = [s + ".o" for s in units(src)]
    argv = [tools.nvcc, "-dlink"] + gencodes(archs) + flags + objs + ["-o", "dlink.o", "-dryrun"]
    rc, out, err = run_cmd(argv, src)
    cmds = {}
    for line in (out + err).splitlines():
        if line.startswith("#$ nvlink "):
            words = shlex.split(line[3:])[1:]
            arch = next(w.split("=", 1)[1] for w in words if w.startswith("--arch=") or w.startswith("-arch="))
            cmds[arch] = words
    return cmds


def retarget(words, stem):
    """Host-mode nvlink words with output (-o) and registration file renamed to <stem>.*."""
    out, skip = [], False
    for w in words:
        if skip:
            out.append(stem + ".cubin")
            skip = False
        elif w == "-o":
            out.append(w)
            skip = True
        elif w.startswith("--register-link-binaries="):
            out.append("--register-link-binaries=%s.reg.c" % stem)
        else:
            out.append(w)
    return out


# --------------------------------------------------------------------------
# Comparison and signatures

SECTION_KINDS = re.compile(r"(|text|nv|info|shared|global|init|local|constant\d*|rel|rela|callgraph|prototype|"
                           r"merc|capmerc|resolvedrela|compat|note|cuinfo|tkinfo|debug_\w+|nv_debug\w*|action|"
                           r"reservedsmem|uft|entry|unified|managed|symtab|strtab|shstrtab)")


def normalize_name(name):
    """Symbol names become <sym>; section names keep their kind (.rela.text.<sym>)."""
    base, _, suffix = name.partition(" ")
    if not base.startswith("."):
        return "<sym>"
    parts = base.split(".")
    for i, part in enumerate(parts):
        if not SECTION_KINDS.fullmatch(part):
            parts = parts[:i] + ["<sym>"]
            break
    return ".".join(parts) + (" " + suffix if suffix and not suffix.startswith("#") else "")


def normalize(line):
    """A difference or error line without generated names and numbers: the signature text."""
    line = line.replace("'.rela.", "'.rel.")  # REL vs RELA is per arch, not a different difference
    line = re.sub(r"'([^']*)'", lambda m: normalize_name(m.group(1)), line)
    line = re.sub(r"/\S+", "<path>", line)
    line = re.sub(r"0x[0-9a-fA-F]+|\b\d+\b", "N", line)
    return line.strip()


def telling_line(lines):
    """The first difference line that says more than a size or a local-symbol count."""
    lines = [l.strip() for l in lines if l.strip()]
    for l in lines:
        if not re.search(r": size \S+ vs |: info \d+ locals vs ", l):
            return l
    return lines[0] if lines else "?"


def slug(text):
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s[:120] or "unknown"


def first_error(stderr):
    for line in stderr.splitlines():
        if "error" in line or "fatal" in line:
            return line
    return stderr.strip().splitlines()[0] if stderr.strip() else "(no message)"


def classify(tools, link_dir, nv, culd, host):
    """(signature or None, detail text) for one link pair."""
    nrc, crc = nv[0], culd[0]
    if crc == "timeout":
        return "culd-timeout", ""
    if isinstance(crc, int) and crc < 0:
        return "culd-crash-%s" % signal.Signals(-crc).name.lower(), culd[2]
    if nrc == "timeout":
        return None, "nvlink timed out"
    if nrc == 0 and crc != 0:
        return "culd-refuses-" + slug(normalize(first_error(culd[2]))), culd[2]
    if nrc != 0 and crc == 0:
        return "culd-accepts-" + slug(normalize(first_error(nv[2]))), nv[2]
    if nrc != 0:
        return None, "both refused"
    rc, out, err = run_cmd([tools.culd_diff, "--code-order", "culd.cubin", "nv.cubin"], link_dir)
    if rc not in (0, 1):
        return "culd-diff-error", out + err
    if rc == 1:
        return "diff-" + slug(normalize(telling_line(out.splitlines()[1:]))), out
    if host and not same_file(os.path.join(link_dir, "nv.reg.c"), os.path.join(link_dir, "culd.reg.c")):
        return "regc-differs", ""
    return None, out.splitlines()[0] if out else ""


def same_file(a, b):
    if not (os.path.exists(a) and os.path.exists(b)):
        return os.path.exists(a) == os.path.exists(b)
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


def link_pair(tools, link_dir, cwd, words, host):
    """Run nvlink and culd with the same words; returns (nv, culd) results and the commands."""
    if host:
        nv_words = retarget(words, os.path.join(link_dir, "nv"))
        culd_words = retarget(words, os.path.join(link_dir, "culd"))
    else:
        nv_words = words + ["-o", "nv.cubin"]
        culd_words = words + ["-o", "culd.cubin"]
    nv = run_cmd([tools.nvlink] + nv_words, cwd)
    culd = run_cmd([tools.culd] + culd_words, cwd)
    cmds = "nvlink %s\nculd %s\n" % (shlex.join(nv_words), shlex.join(culd_words))
    return nv, culd, cmds


def two_step_pair(tools, link_dir, words, final_words):
    """Each linker links the units with -r, then links its own output again
    (with final_words); returns (nv, culd) results (of the step that failed,
    else the second) and the commands."""
    results, cmds = [], ""
    for name, linker in (("nv", tools.nvlink), ("culd", tools.culd)):
        first = words + ["-r", "-o", name + ".r.cubin"]
        second = final_words + [name + ".r.cubin", "-o", name + ".cubin"]
        res = run_cmd([linker] + first, link_dir)
        if res[0] == 0:
            res = run_cmd([linker] + second, link_dir)
        results.append(res)
        cmds += "%s %s\n%s %s\n" % (name, shlex.join(first), name, shlex.join(second))
    return results[0], results[1], cmds


def check_link(tools, src, arch, mode, devrt, words=None):
    """Link one program for one arch and mode; (signature or None, detail, nvlink rc, link dir)."""
    link_dir = os.path.join(src, "link-%s-%s" % (arch, mode))
    shutil.rmtree(link_dir, ignore_errors=True)
    os.makedirs(link_dir)
    if mode == "cubin":
        words = cubin_link_args(tools, src, arch, devrt, link_dir)
        nv, culd, cmds = link_pair(tools, link_dir, link_dir, words, False)
    elif mode == "rel":
        # -r of the units alone: the device runtime is for the final link.
        words = cubin_link_args(tools, src, arch, False, link_dir) + ["-r"]
        nv, culd, cmds = link_pair(tools, link_dir, link_dir, words, False)
    elif mode == "twostep":
        words = cubin_link_args(tools, src, arch, False, link_dir)
        final = ["-arch=" + arch] + (["-L" + tools.devrt_dir, "-lcudadevrt"] if devrt else [])
        nv, culd, cmds = two_step_pair(tools, link_dir, words, final)
    else:
        nv, culd, cmds = link_pair(tools, link_dir, src, words, True)
    for name, res in (("nvlink", nv), ("culd", culd)):
        for ext, text in (("rc", str(res[0]) + "\n"), ("stdout", res[1]), ("stderr", res[2])):
            with open(os.path.join(link_dir, "%s.%s" % (name, ext)), "w") as f:
                f.write(text)
    with open(os.path.join(link_dir, "cmd"), "w") as f:
        f.write(cmds)
    sig, detail = classify(tools, link_dir, nv, culd, mode == "host")
    if sig:
        with open(os.path.join(link_dir, "diff.txt"), "w") as f:
            f.write(detail)
    return sig, detail, nv[0], link_dir


# --------------------------------------------------------------------------
# One program

def program_flags(seed, debug):
    """Extra nvcc flags for a program: with --debug, -G or -lineinfo for some seeds."""
    if not debug:
        return []
    return random.Random("flags:%d" % seed).choice([[], [], ["-G"], ["-lineinfo"]])


def prepare_random(seed, work):
    plan = gen.make_plan(seed)
    files, devrt = gen.render(plan)
    gen.write_sources(files, work)
    with open(os.path.join(work, "plan.json"), "w") as f:
        json.dump(plan, f, indent=1)
    # cubin mode links cudadevrt when needed, and sometimes when not
    return devrt or random.Random("devrt:%d" % seed).random() < 0.3


def prepare_library(lib_dir, work):
    os.makedirs(work, exist_ok=True)
    for f in os.listdir(lib_dir):
        shutil.copy(os.path.join(lib_dir, f), work)
    return True


def test_program(ctx, name, prepare, flags):
    """Generate/copy, compile and link-compare one program; returns a result dict."""
    work = os.path.join(ctx.out, "work", name)
    shutil.rmtree(work, ignore_errors=True)
    devrt = prepare(work)
    res = {"name": name, "flags": flags, "links": [], "compile_error": None}
    err = compile_program(ctx.tools, work, ctx.archs, flags)
    if err:
        res["compile_error"] = err
        keep_case(ctx, "generator-compile-error", name, work, None, {"flags": flags, "compile_error": err}, False)
        return res
    host_cmds = host_link_commands(ctx.tools, work, ctx.archs, flags) if "host" in ctx.modes else {}
    for arch in ctx.archs:
        for mode in ctx.modes:
            if mode == "host" and arch not in host_cmds:
                res["links"].append({"arch": arch, "mode": mode, "sig": "no-dryrun-command"})
                continue
            sig, _, nrc, link_dir = check_link(ctx.tools, work, arch, mode, devrt, host_cmds.get(arch))
            res["links"].append({"arch": arch, "mode": mode, "sig": sig, "nvlink_rc": nrc})
            if sig:
                meta = {"name": name, "arch": arch, "mode": mode, "flags": flags, "devrt": devrt, "sig": sig}
                keep_case(ctx, sig, "%s-%s-%s" % (name, arch, mode), work, link_dir, meta, mode == "host")
    if not ctx.keep_work:
        shutil.rmtree(work, ignore_errors=True)
    return res


def keep_case(ctx, sig, case, work, link_dir, meta, host_objects):
    """Copy sources, plan, meta.json (what shrink.py needs) and the link directory to failures/<sig>/<case>/."""
    with ctx.lock:
        ctx.sig_counts[sig] += 1
        if ctx.sig_counts[sig] > MAX_KEPT_PER_SIGNATURE:
            return
    dest = os.path.join(ctx.out, "failures", sig, case)
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    with open(os.path.join(dest, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
    for f in os.listdir(work):
        if f.endswith((".cu", ".cuh", ".json")):
            shutil.copy(os.path.join(work, f), dest)
    if link_dir:
        shutil.copytree(link_dir, os.path.join(dest, "link"))
        for f in os.listdir(work):  # host-mode inputs for rerunning the command
            if f.endswith(".o") and host_objects:
                shutil.copy(os.path.join(work, f), dest)


# --------------------------------------------------------------------------
# Driver

class Context:
    def __init__(self, args):
        self.tools = Tools(args)
        self.archs = args.arch
        self.modes = args.modes
        self.out = os.path.abspath(args.out)
        self.keep_work = args.keep_work
        self.lock = threading.Lock()
        self.sig_counts = collections.Counter()


def jobs_for(args):
    """(name, prepare, flags) for every program to test, lazily."""
    if args.library is not None:
        lib = args.library_root
        for d in sorted(os.listdir(lib)):
            if os.path.isdir(os.path.join(lib, d)) and (not args.library or d in args.library):
                path = os.path.join(lib, d)
                yield "lib-" + d, (lambda w, p=path: prepare_library(p, w)), []
        return
    seed = args.seed
    while True:
        yield str(seed), (lambda w, s=seed: prepare_random(s, w)), program_flags(seed, args.debug)
        seed += 1


def run_all(ctx, args):
    """Run programs with -j workers until -n programs or -t seconds; yields results."""
    deadline = time.time() + args.time if args.time else None
    jobs = jobs_for(args)
    started = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        running = set()
        while True:
            while len(running) < args.jobs and (args.library is not None or started < args.num) and \
                    (deadline is None or time.time() < deadline):
                job = next(jobs, None)
                if job is None:
                    break
                running.add(pool.submit(test_program, ctx, *job))
                started += 1
            if not running:
                return
            done, running = concurrent.futures.wait(running, return_when=concurrent.futures.FIRST_COMPLETED)
            for d in done:
                yield d.result()


def summarize(results):
    """The summary text: programs, links per arch and mode, verdicts, signatures."""
    lines = []
    compiled = [r for r in results if not r["compile_error"]]
    lines.append("programs generated: %d, compiled: %d, generator compile errors: %d"
                 % (len(results), len(compiled), len(results) - len(compiled)))
    per = collections.defaultdict(collections.Counter)
    sigs = collections.Counter()
    for r in compiled:
        for l in r["links"]:
            key = (l["arch"], l["mode"])
            per[key]["links"] += 1
            if l["sig"]:
                per[key]["fail"] += 1
                sigs[l["sig"]] += 1
            elif l.get("nvlink_rc") != 0:
                per[key]["both-refused"] += 1
            else:
                per[key]["equivalent"] += 1
    lines.append("%-8s %-6s %6s %11s %13s %6s" % ("arch", "mode", "links", "equivalent", "both-refused", "fail"))
    for (arch, mode), c in sorted(per.items()):
        lines.append("%-8s %-6s %6d %11d %13d %6d" % (arch, mode, c["links"], c["equivalent"],
                                                      c["both-refused"], c["fail"]))
    lines.append("failure signatures (links):")
    for sig, n in sigs.most_common():
        lines.append("  %5d  %s" % (n, sig))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", "--num", type=int, default=10, help="number of random programs (default 10)")
    ap.add_argument("-t", "--time", type=float, help="stop starting programs after this many seconds")
    ap.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="programs in parallel (default 1)")
    ap.add_argument("--arch", nargs="+", default=DEFAULT_ARCHS, help="link arches")
    ap.add_argument("--modes", type=lambda s: s.split(","), default=["cubin", "host"],
                    help="comma-separated: cubin,host,rel,twostep (default cubin,host)")
    ap.add_argument("--debug", action="store_true", help="compile some programs with -G or -lineinfo")
    ap.add_argument("--library", nargs="*", help="run the hand-written library set (or the named programs) instead")
    ap.add_argument("--library-root", default=os.path.join(HERE, "library"),
                    help="where --library finds its programs, one folder each (default: library/ beside run.py)")
    ap.add_argument("--cuda", default="/usr/local/cuda")
    ap.add_argument("--culd", default=os.path.join(REPO, "build", "tools", "culd", "culd"))
    ap.add_argument("--culd-diff", default=os.path.join(REPO, "build", "tools", "culd-diff", "culd-diff"))
    ap.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "difftest-out"),
                    help="scratch and failures (default $TMPDIR/difftest-out)")
    ap.add_argument("--keep-work", action="store_true", help="keep the work directory of every program")
    ap.add_argument("--summary", action="store_true", help="only print the summary of <out>/results.jsonl (all runs)")
    args = ap.parse_args()
    ctx = Context(args)
    os.makedirs(ctx.out, exist_ok=True)
    if args.summary:
        with open(os.path.join(ctx.out, "results.jsonl")) as f:
            print(summarize([json.loads(line) for line in f]))
        return
    results = []
    log = open(os.path.join(ctx.out, "results.jsonl"), "a")
    for r in run_all(ctx, args):
        results.append(r)
        log.write(json.dumps(r) + "\n")
        log.flush()
        bad = sorted({l["sig"] for l in r["links"] if l["sig"]})
        status = "COMPILE-ERROR" if r["compile_error"] else ("FAIL " + " ".join(bad) if bad else "ok")
        print("[%d] %s %s %s" % (len(results), r["name"], " ".join(r["flags"]), status), flush=True)
    text = summarize(results)
    print(text)
    with open(os.path.join(ctx.out, "summary.txt"), "w") as f:
        f.write(text + "\n")


if __name__ == "__main__":
    sys.exit(main())
