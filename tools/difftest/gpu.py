#!/usr/bin/env python3
"""Run programs linked by nvlink and by culd on a GPU and compare what they compute.

Two steps, because the machine with the GPU need not have the toolchain:

  gpu.py build --seed S -n N --arch sm_90 --out DIR [--library] [--debug]
      here, with CUDA and culd: every program (gen.py seed with a checked
      main, see gen.render_checked; or a hand-written library program) is
      compiled once with `nvcc -rdc=true -c`, then linked into an executable
      twice by nvcc: with nvlink as the device linker, and with culd
      (scripts/nvcc-with-culd.sh; the log proves nvcc called culd).  Only
      SASS for the one arch is embedded, so the driver has no PTX to fall
      back on.  DIR/bundle/ holds the executables, libcudart and
      manifest.json; a link culd refuses is recorded there, not built.

  gpu.py run DIR/bundle [--out RESULTS]
      on the GPU machine (plain python3, no CUDA toolkit needed): each
      nvlink executable runs twice (a program whose two runs disagree is
      "varies": it reads memory nobody wrote, races, or prints timings, and
      only the exit statuses are compared), the culd executable once; the
      exit statuses and outputs must be the same.  Where culd's output
      differs from nvlink's, both run RERUNS more times: the program is
      "varies" only if nvlink's executable also gives culd's output.
      Prints one line per program and a summary; exits 1 if any differ.
"""

import argparse
import concurrent.futures
import glob
import json
import os
import random
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
RUN_TIMEOUT = 60
RERUNS = 20


def build_flags(seed, debug):
    """nvcc flags of a seed's program: with --debug, -G or -lineinfo for some."""
    if not debug:
        return []
    return random.Random("gpu-flags:%d" % seed).choice([[], ["-G"], ["-lineinfo"]])


def sh(argv, cwd, env=None):
    p = subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, timeout=1800)
    return p.returncode, p.stdout


def compile_and_link(args, work, sources, devrt, flags):
    """A builder for sources compiled here: objects once, then
    build(driver, exe, env) links them with that nvcc driver."""
    gencode = "-gencode=arch=compute_%s,code=%s" % (args.arch[3:], args.arch)
    objs = []
    for cu in sorted(sources):
        obj = os.path.splitext(cu)[0] + ".o"
        rc, out = sh([nvcc_of(args), "-rdc=true", "-c", gencode] + flags + [cu, "-o", obj], work)
        if rc:
            return None, out
        objs.append(obj)
    link = [gencode, "-rdc=true", "-cudart", "shared"] + flags + objs + (["-lcudadevrt"] if devrt else [])
    return (lambda driver, exe, env: sh([driver] + link + ["-o", exe], work, env)), ""


def scripted(work):
    """A builder for a program with its own build.sh DRIVER EXE (--samples)."""
    return (lambda driver, exe, env: sh(["bash", os.path.join(work, "build.sh"), driver, exe], work, env)), ""


def nvcc_of(args):
    return os.path.join(args.cuda, "bin", "nvcc")


def build_one(args, name, make_builder, flags):
    """Build one program with both linkers; returns its manifest entry."""
    work = os.path.join(args.out, "work", name)
    bundle = os.path.join(args.out, "bundle")
    entry = {"name": name, "flags": flags, "arch": args.arch}
    build, log = make_builder(work)
    if build is None:
        entry.update(status="compile-error", log=log[-2000:])
        return entry
    rc, out = build(nvcc_of(args), os.path.join(bundle, name + ".nvlink"), None)
    if rc:
        entry.update(status="nvlink-refused", log=out[-2000:])
        return entry
    culd_log = os.path.join(work, "culd.log")
    env = dict(os.environ, CULD=os.path.abspath(args.culd), CULD_LOG=culd_log, CUDA13=args.cuda)
    rc, out = build(os.path.join(REPO, "scripts", "nvcc-with-culd.sh"), os.path.join(bundle, name + ".culd"), env)
    if not os.path.exists(culd_log):
        entry["status"] = "culd-not-called"
    elif rc:
        entry.update(status="culd-refused", log=out[-2000:])
    else:
        entry["status"] = "built"
    return entry


def programs(args):
    """(name, prepare(work) -> make_builder, flags) of every program to build."""
    sys.path.insert(0, HERE)
    import gen

    def copied(src):
        def prepare(work):
            for f in os.listdir(src):
                if os.path.isfile(os.path.join(src, f)):
                    shutil.copy(os.path.join(src, f), work)
            if os.path.exists(os.path.join(work, "build.sh")):
                return scripted
            sources = [f for f in os.listdir(work) if f.endswith(".cu")]
            return lambda w: compile_and_link(args, w, sources, False, [])
        return prepare

    if args.library:
        lib = os.path.join(HERE, "library")
        for d in sorted(os.listdir(lib)):
            yield "lib-" + d, copied(os.path.join(lib, d)), []
    if args.samples:
        # the samples' build.sh files find shared headers in ../common
        common = os.path.join(args.samples, "common")
        if os.path.isdir(common):
            shutil.copytree(common, os.path.join(args.out, "work", "common"), dirs_exist_ok=True)
        for d in sorted(os.listdir(args.samples)):
            if os.path.exists(os.path.join(args.samples, d, "build.sh")):
                yield "sample-" + d, copied(os.path.join(args.samples, d)), []
    for seed in range(args.seed, args.seed + args.num):
        def prepare(work, seed=seed):
            files, devrt = gen.render_checked(gen.make_plan(seed))
            gen.write_sources(files, work)
            flags = build_flags(seed, args.debug)
            return lambda w: compile_and_link(args, w, list(files), devrt, flags)
        yield str(seed), prepare, build_flags(seed, args.debug)


def build(args):
    bundle = os.path.join(args.out, "bundle")
    os.makedirs(bundle, exist_ok=True)
    cudart = sorted(glob.glob(os.path.join(args.cuda, "lib64", "libcudart.so.[0-9]*")))
    for lib in cudart:
        shutil.copy(lib, bundle)
    jobs = []
    for name, prepare, flags in programs(args):
        work = os.path.join(args.out, "work", name)
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        jobs.append((name, prepare(work), flags))
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        entries = list(pool.map(lambda j: build_one(args, *j), jobs))
    for e in entries:
        print("%-12s %-16s %s" % (e["name"], e["status"], " ".join(e["flags"])), flush=True)
    with open(os.path.join(bundle, "manifest.json"), "w") as f:
        json.dump(entries, f, indent=1)
    counts = {}
    for e in entries:
        counts[e["status"]] = counts.get(e["status"], 0) + 1
    print("built:", ", ".join("%s %d" % kv for kv in sorted(counts.items())))


def run_exe(path, env):
    """Runs one executable; argv[0] is its path without the .nvlink/.culd
    suffix, the same for both links (the CUDA samples print their argv[0]:
    simpleAWBarrier came out "different" on the name alone)."""
    try:
        p = subprocess.run([os.path.splitext(path)[0]], executable=path, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=RUN_TIMEOUT)
        return p.returncode, p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return "timeout", ""


def judge(e, env):
    """Run one built program's executables and set e["verdict"]."""
    if e["status"] != "built":
        e["verdict"] = e["status"]
        return e
    exe = os.path.join(env["GPU_BUNDLE"], e["name"])
    first = run_exe(exe + ".nvlink", env)
    second = run_exe(exe + ".nvlink", env)
    mine = run_exe(exe + ".culd", env)
    e["nvlink"], e["nvlink_again"], e["culd"] = first, second, mine
    if first != second:
        # the output varies from run to run: only the exit statuses compare
        e["verdict"] = "varies-same-status" if first[0] == second[0] == mine[0] else "flaky"
    elif mine == first:
        e["verdict"] = "same" if first[0] == 0 else "same-failure"
    else:
        e["verdict"] = rerun_verdict(exe, env, e)
    # a checked main's launches that failed (the same failure in both is no proof)
    e["failed_launches"] = len(re.findall(r"launch (?!0 sync 0\b)\d+ sync \d+", first[1]))
    return e


def rerun_verdict(exe, env, e):
    """culd's output differs from nvlink's two equal ones: a race, or a read
    of memory nobody wrote, can do that.  Run both RERUNS more times: the
    program "varies" if one executable's outputs vary and the two share an
    output; else the link is "different"."""
    seen = {"nvlink": {e["nvlink"]}, "culd": {e["culd"]}}
    for _ in range(RERUNS):
        for which in ("nvlink", "culd"):
            seen[which].add(run_exe(exe + "." + which, env))
    e["reruns"] = {k: sorted(map(list, v)) for k, v in seen.items()}
    if seen["culd"] & seen["nvlink"] and max(len(seen["nvlink"]), len(seen["culd"])) > 1:
        return "varies-same-status" if len({r[0] for r in seen["nvlink"] | seen["culd"]}) == 1 else "flaky"
    return "different"


def run(args):
    bundle = os.path.abspath(args.bundle)
    with open(os.path.join(bundle, "manifest.json")) as f:
        entries = json.load(f)
    env = dict(os.environ, GPU_BUNDLE=bundle,
               LD_LIBRARY_PATH=bundle + ":" + os.environ.get("LD_LIBRARY_PATH", ""))
    counts = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for e in pool.map(lambda e: judge(e, env), entries):
            counts[e["verdict"]] = counts.get(e["verdict"], 0) + 1
            if e["verdict"] == "same" and e.get("failed_launches"):
                counts["same-with-failed-launches"] = counts.get("same-with-failed-launches", 0) + 1
            lines = len(e.get("nvlink", (0, ""))[1].splitlines())
            print("%-22s %-18s %-10s output lines %d, failed launches %d"
                  % (e["name"], e["verdict"], " ".join(e["flags"]), lines, e.get("failed_launches", 0)), flush=True)
            if e["verdict"] in ("different", "flaky"):
                for k in ("nvlink", "nvlink_again", "culd"):
                    print("  %-12s rc %s: %r" % (k, e[k][0], e[k][1][-600:]), flush=True)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(entries, f, indent=1)
    print("summary:", ", ".join("%s %d" % kv for kv in sorted(counts.items())))
    return 1 if counts.get("different") else 0


def selftest():
    """The verdicts on stand-in executables (shell scripts; no GPU needed)."""
    import tempfile
    # name: (nvlink's script, culd's script, expected verdict)
    flip = "if [ $(( $(od -An -N2 -tu2 /dev/urandom) %% 2 )) = 0 ]; then echo %s; else echo %s; fi"
    cases = {
        "same": ("echo A", "echo A", "same"),
        "same-failure": ("echo E; exit 3", "echo E; exit 3", "same-failure"),
        "other-output": ("echo A", "echo B", "different"),
        "other-status": ("echo A", "echo A; exit 1", "different"),
        "nvlink-races": (flip % ("A", "B"), "echo B", "varies-same-status"),
        "culd-races": ("echo A", flip % ("A", "B"), "varies-same-status"),
        "culd-races-elsewhere": ("echo A", flip % ("B", "C"), "different"),
        "refused": (None, None, "culd-refused"),
    }
    # A program printing its argv[0] (a script sees its file's path instead,
    # so this one is compiled, where a C compiler is found).
    cc = shutil.which("cc")
    if cc:
        cases["prints-argv0"] = ("C", "C", "same")
    with tempfile.TemporaryDirectory() as bundle:
        entries = []
        for name, (nv, mine, _) in cases.items():
            entries.append({"name": name, "flags": [], "status": "culd-refused" if nv is None else "built"})
            for suffix, text in (("nvlink", nv), ("culd", mine)):
                path = os.path.join(bundle, name + "." + suffix)
                if text == "C":
                    src = os.path.join(bundle, "argv0.c")
                    with open(src, "w") as f:
                        f.write("#include <stdio.h>\nint main(int c, char **v) { puts(v[0]); return 0; }\n")
                    subprocess.run([cc, src, "-o", path], check=True)
                elif text is not None:
                    with open(path, "w") as f:
                        f.write("#!/bin/sh\n%s\n" % text)
                    os.chmod(path, 0o755)
        with open(os.path.join(bundle, "manifest.json"), "w") as f:
            json.dump(entries, f)
        env = dict(os.environ, GPU_BUNDLE=bundle)
        bad = 0
        for e in entries:
            got = judge(e, env)["verdict"]
            want = cases[e["name"]][2]
            # a racing stand-in may by chance give one output in every run
            ok = got == want or (e["name"].endswith("races") and got == "same")
            print("%-22s %-20s %s" % (e["name"], got, "ok" if ok else "expected " + want))
            bad += not ok
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd")
    b = sub.add_parser("build")
    b.add_argument("--seed", type=int, default=0)
    b.add_argument("-n", "--num", type=int, default=0)
    b.add_argument("--arch", default="sm_90")
    b.add_argument("--library", action="store_true", help="also the hand-written Thrust/CUB programs")
    b.add_argument("--samples", help="also each DIR/<name>/ with a build.sh DRIVER EXE")
    b.add_argument("--debug", action="store_true", help="-G or -lineinfo for some seeds")
    b.add_argument("--cuda", default=os.environ.get("CUDA13", "/usr/local/cuda"))
    b.add_argument("--culd", default=os.path.join(REPO, "build", "tools", "culd", "culd"))
    b.add_argument("-j", "--jobs", type=int, default=2)
    b.add_argument("--out", required=True)
    r = sub.add_parser("run")
    r.add_argument("bundle")
    r.add_argument("--out", help="results as JSON")
    r.add_argument("-j", "--jobs", type=int, default=8, help="programs run at once (default 8)")
    sub.add_parser("selftest", help="check the verdicts on stand-in executables")
    args = ap.parse_args()
    if args.cmd == "selftest":
        return selftest()
    if args.cmd == "build":
        build(args)
        return 0
    if args.cmd == "run":
        return run(args)
    ap.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
