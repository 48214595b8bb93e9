#!/usr/bin/env python3
"""Shrink a failing difftest case to a small reproduction with the same signature.

    shrink.py --case <out>/failures/<signature>/<seed>-<arch>-<mode>
    shrink.py --seed 17 --arch sm_80 --mode cubin [--sig SIGNATURE]

Phase 1 works on the generator plan (random programs only): delta debugging
over the feature items, then dropping host main(), whole units, and units of
each item.  Phase 2 (--lines) does delta debugging on the rendered sources,
first over top-level blocks (blank-line separated), then over lines.  Every
candidate is compiled for the one arch and linked in the one mode; it is
kept when run.py classifies it with the same signature.  The result lands in
--out (default $TMPDIR/difftest-repros/<signature>/): the .cu files, plan.json,
the link commands, both linkers' outputs and culd-diff's text.
"""

import argparse
import json
import os
import shutil
import tempfile
import types

import gen
import run


class Oracle:
    """Compiles and links candidates; answers 'same failure signature?'."""

    def __init__(self, tools, arch, mode, flags, devrt, sig, scratch):
        self.tools, self.arch, self.mode = tools, arch, mode
        self.flags, self.devrt, self.sig = flags, devrt, sig
        self.scratch = scratch
        self.cache = {}
        self.tests = 0

    def signature(self, files, keep_dir=None):
        """Signature of a set of sources ({name: text}); None when it links equivalently."""
        key = json.dumps(sorted(files.items()))
        if key in self.cache and keep_dir is None:
            return self.cache[key]
        self.tests += 1
        work = keep_dir or tempfile.mkdtemp(dir=self.scratch)
        gen.write_sources(files, work)
        sig = "compile-error"
        if run.compile_program(self.tools, work, [self.arch], self.flags) is None:
            words = None
            if self.mode == "host":
                words = run.host_link_commands(self.tools, work, [self.arch], self.flags).get(self.arch)
            if self.mode == "cubin" or words:
                sig = run.check_link(self.tools, work, self.arch, self.mode, self.devrt, words)[0]
        if keep_dir is None:
            shutil.rmtree(work, ignore_errors=True)
        self.cache[key] = sig
        return sig

    def interesting(self, files):
        ok = bool(files) and self.signature(files) == self.sig
        print("  test %d: %d file(s), %d lines -> %s" % (self.tests, len(files),
              sum(t.count("\n") for t in files.values()), "keep" if ok else "no"), flush=True)
        return ok


def ddmin(items, test):
    """Delta debugging (complements only): a small sublist for which test() still holds."""
    n = 2
    while len(items) >= 2:
        size = -(-len(items) // n)
        chunks = [items[i:i + size] for i in range(0, len(items), size)]
        for idx in range(len(chunks)):
            rest = [x for j, c in enumerate(chunks) if j != idx for x in c]
            if test(rest):
                items, n = rest, max(n - 1, 2)
                break
        else:
            if n >= len(items):
                break
            n = min(len(items), 2 * n)
    if len(items) == 1 and test([]):
        return []
    return items


# --------------------------------------------------------------------------
# Phase 1: the plan

def drop_unit(plan, t):
    """The plan without unit t: items lose it, later units are renumbered."""
    items = []
    for it in plan["items"]:
        tus = [u - (u > t) for u in it["tus"] if u != t]
        if tus:
            items.append(dict(it, tus=tus))
    main = plan["main_tu"]
    main = None if main == t or main is None else main - (main > t)
    return dict(plan, ntu=plan["ntu"] - 1, items=items, main_tu=main)


def shrink_plan(plan, oracle):
    """Greedy generator-level reduction: items, main(), units, units per item."""
    test = lambda p: oracle.interesting(gen.render(p)[0])
    print("phase 1: %d items" % len(plan["items"]))
    plan["items"] = ddmin(plan["items"], lambda its: test(dict(plan, items=its)))
    if plan["main_tu"] is not None and test(dict(plan, main_tu=None)):
        plan["main_tu"] = None
    t = plan["ntu"] - 1
    while t >= 0 and plan["ntu"] > 1:
        cand = drop_unit(plan, t)
        if test(cand):
            plan = cand
        t -= 1
    for i, it in enumerate(plan["items"]):
        for u in list(it["tus"]):
            if len(plan["items"][i]["tus"]) > 1:
                items = list(plan["items"])
                items[i] = dict(items[i], tus=[x for x in items[i]["tus"] if x != u])
                if test(dict(plan, items=items)):
                    plan = dict(plan, items=items)
    return plan


# --------------------------------------------------------------------------
# Phase 2: the sources

def split_blocks(text):
    return [b + "\n" for b in text.split("\n\n")]


def shrink_sources(files, oracle, max_tests):
    """ddmin over (file, block) pieces, then over (file, line) pieces."""
    for splitter, joiner in ((split_blocks, "\n"), (lambda t: [l + "\n" for l in t.split("\n")], "")):
        pieces = [(name, p) for name in sorted(files) for p in splitter(files[name])]
        budget = oracle.tests + max_tests

        def assemble(ps):
            out = {}
            for name, p in ps:
                out.setdefault(name, []).append(p)
            return {n: joiner.join(v) for n, v in out.items()}

        def test(ps):
            return oracle.tests < budget and oracle.interesting(assemble(ps))

        print("phase 2: %d pieces" % len(pieces))
        files = assemble(ddmin(pieces, test))
    return files


# --------------------------------------------------------------------------

def load_case(case_dir):
    """(plan or None, files, meta) of a saved failure folder."""
    meta_path = os.path.join(case_dir, "meta.json")
    if os.path.exists(meta_path):
        with open(meta_path) as f:
            meta = json.load(f)
    else:  # older folders: <name>-<arch>-<mode>, no flags
        name, arch, mode = os.path.basename(case_dir.rstrip("/")).rsplit("-", 2)
        with open(os.path.join(case_dir, "link", "cmd")) as f:
            devrt = "-lcudadevrt" in f.read()
        meta = {"name": name, "arch": arch, "mode": mode, "flags": [], "devrt": devrt,
                "sig": os.path.basename(os.path.dirname(case_dir.rstrip("/")))}
    files = {}
    for f in os.listdir(case_dir):
        if f.endswith((".cu", ".cuh")):
            with open(os.path.join(case_dir, f)) as fh:
                files[f] = fh.read()
    plan = None
    if os.path.exists(os.path.join(case_dir, "plan.json")):
        with open(os.path.join(case_dir, "plan.json")) as f:
            plan = json.load(f)
    return plan, files, meta


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--case", help="a failures/<signature>/<case> folder written by run.py")
    ap.add_argument("--seed", type=int)
    ap.add_argument("--arch", default="sm_80")
    ap.add_argument("--mode", default="cubin", choices=["cubin", "host"])
    ap.add_argument("--flags", default="", help="extra nvcc flags (e.g. -G) for --seed")
    ap.add_argument("--sig", help="signature to keep (default: what the unshrunk case gives)")
    ap.add_argument("--lines", action="store_true", help="also shrink the sources (blocks, then lines)")
    ap.add_argument("--max-tests", type=int, default=150, help="tests per source phase (default 150)")
    ap.add_argument("--out", help="result folder (default $TMPDIR/difftest-repros/<signature>)")
    ap.add_argument("--cuda", default="/usr/local/cuda")
    ap.add_argument("--culd", default=os.path.join(run.REPO, "build", "tools", "culd", "culd"))
    ap.add_argument("--culd-diff", default=os.path.join(run.REPO, "build", "tools", "culd-diff", "culd-diff"))
    args = ap.parse_args()

    if args.case:
        plan, files, meta = load_case(args.case)
    elif args.seed is not None:
        plan = gen.make_plan(args.seed)
        files, devrt = gen.render(plan)
        meta = {"arch": args.arch, "mode": args.mode, "flags": args.flags.split(), "devrt": devrt, "sig": None}
    else:
        ap.error("give --case or --seed")
    tools = run.Tools(types.SimpleNamespace(cuda=args.cuda, culd=args.culd, culd_diff=args.culd_diff))
    scratch = tempfile.mkdtemp(prefix="difftest-shrink-")
    oracle = Oracle(tools, meta["arch"], meta["mode"], meta["flags"], meta["devrt"], None, scratch)
    oracle.sig = args.sig or oracle.signature(files)
    print("target signature: %s (%s, %s)" % (oracle.sig, meta["arch"], meta["mode"]))
    if oracle.sig in (None, "compile-error"):
        raise SystemExit("the case does not fail (signature %s): nothing to shrink" % oracle.sig)
    if plan:
        plan = shrink_plan(plan, oracle)
        files = gen.render(plan)[0]
    if args.lines:
        files = shrink_sources(files, oracle, args.max_tests)

    out = args.out or os.path.join(tempfile.gettempdir(), "difftest-repros", oracle.sig)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    sig = oracle.signature(files, keep_dir=out)
    if plan:
        with open(os.path.join(out, "plan.json"), "w") as f:
            json.dump(plan, f, indent=1)
    with open(os.path.join(out, "meta.json"), "w") as f:
        json.dump(dict(meta, sig=sig), f, indent=1)
    shutil.rmtree(scratch, ignore_errors=True)
    print("%d tests; result (%s) in %s" % (oracle.tests, sig, out))
    with open(os.path.join(out, "link-%s-%s" % (meta["arch"], meta["mode"]), "cmd")) as f:
        print(f.read())


if __name__ == "__main__":
    main()
