#!/usr/bin/env python3
"""Link-time benchmark: culd vs. nvlink on generated CUDA workloads.

For every workload size (TUSxFUNCS) this script
  1. generates the sources with bench/gen_workload.py   (bench/work/wTxF_sS/src)
  2. compiles them with bench/build_workload.sh          (bench/work/wTxF_sS/<arch>)
     (content-hash cached, so re-runs only link)
  3. links all cubins R times with nvlink and with culd:
        nvlink -arch=sm_XX *.cubin -o out.cubin
        culd   -arch=sm_XX *.cubin -o out.cubin
     and reports median wall time, peak RSS (max over runs), the ratio
     nvlink/culd, time per input MB and the growth between sizes.

Results go to stdout as a Markdown table; --json FILE also writes them as JSON.
A culd failure is reported in its row ("culd failed: <first stderr line>");
nvlink's numbers are still printed.  The ratio is informational only.

Peak RSS is taken from the kernel's per-child rusage (os.wait4 on the linker
process, ru_maxrss), the same number GNU `/usr/bin/time -f %M` prints.

Environment: CUDA (default /usr/local/cuda), NVLINK (default $CUDA/bin/nvlink),
CULD (default build/tools/culd/culd, relative to the repository root).
"""

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_SIZES = "small=12x24,medium=48x24,large=96x24"


def parse_sizes(text):
    sizes = []
    for i, item in enumerate(x for x in text.split(",") if x.strip()):
        item = item.strip()
        if "=" in item:
            name, dims = item.split("=", 1)
        else:
            name, dims = item, item
        try:
            t, f = (int(v) for v in dims.lower().split("x"))
        except ValueError:
            raise SystemExit("bad size %r (want NAME=TUSxFUNCS or TUSxFUNCS)" % item)
        sizes.append((name, t, f))
    return sizes


def run_timed(cmd, cwd):
    """Run cmd; return (rc, wall_seconds, cpu_seconds, maxrss_kib, stderr_text)."""
    with tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=err)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status) if hasattr(
            os, "waitstatus_to_exitcode") else (status >> 8)
        err.seek(0)
        text = err.read().decode("utf-8", "replace")
    # ru_maxrss is KiB on Linux; CPU = user + system of the linker process.
    return p.returncode, wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss, text


def bench_linker(name, exe, arch, cubins, cwd, runs, warmup, verbose):
    out = os.path.join(cwd, "out.%s.cubin" % name)
    cmd = [exe, "-arch=%s" % arch] + cubins + ["-o", out]
    res = {"cmd": " ".join([os.path.basename(exe)] + cmd[1:2] + ["*.cubin", "-o", os.path.basename(out)])}
    if not (os.path.isfile(exe) and os.access(exe, os.X_OK)):
        res["error"] = "not found: %s" % exe
        return res
    walls, cpus, rss = [], [], []
    for i in range(warmup + runs):
        if os.path.exists(out):
            os.remove(out)
        rc, wall, cpu, maxrss, err = run_timed(cmd, cwd)
        if rc != 0 or not os.path.isfile(out):
            lines = [l for l in err.splitlines() if l.strip()]
            res["error"] = (lines[0] if lines else "exit status %d, no output" % rc)[:200]
            res["rc"] = rc
            return res
        if err.strip():
            res.setdefault("stderr", err.strip()[:2000])
        if i >= warmup:
            walls.append(wall)
            cpus.append(cpu)
            rss.append(maxrss)
        if verbose:
            print("  %-6s run %d: %.3fs wall %.3fs cpu %d KiB" % (name, i - warmup, wall, cpu, maxrss),
                  file=sys.stderr)
    res.update({
        "runs_s": [round(w, 4) for w in walls],
        "median_s": statistics.median(walls),
        "min_s": min(walls),
        "max_s": max(walls),
        "cpu_runs_s": [round(c, 4) for c in cpus],
        "median_cpu_s": statistics.median(cpus),
        "peak_rss_kib": max(rss),
        "output_bytes": os.path.getsize(out),
    })
    return res


def fmt_s(v):
    return "%.3f" % v if v < 10 else "%.2f" % v


def fmt_mb(kib):
    return "%.0f" % (kib / 1024.0)


def main(argv=None):
    ap = argparse.ArgumentParser(description="culd vs nvlink link-time benchmark",
                                 epilog="Sizes: comma-separated NAME=TUSxFUNCS, default " + DEFAULT_SIZES)
    ap.add_argument("--sizes", default=os.environ.get("SIZES", DEFAULT_SIZES))
    ap.add_argument("--runs", "-r", type=int, default=5, help="timed runs per linker (default 5)")
    ap.add_argument("--warmup", type=int, default=1, help="untimed warm-up runs (default 1)")
    ap.add_argument("--arch", default=os.environ.get("ARCH", "sm_90"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--kernels-per-tu", type=int, default=3)
    ap.add_argument("--tu-span", type=int, default=0,
                    help="passed to gen_workload.py: callees only from TUs within +-SPAN (0 = any)")
    ap.add_argument("--jobs", "-j", type=int, default=2, help="parallel nvcc jobs (default 2)")
    ap.add_argument("--culd", default=os.environ.get("CULD", os.path.join(ROOT, "build/tools/culd/culd")))
    ap.add_argument("--nvlink", default=os.environ.get("NVLINK", os.path.join(
        os.environ.get("CUDA", "/usr/local/cuda"), "bin", "nvlink")))
    ap.add_argument("--no-culd", action="store_true", help="time nvlink only")
    ap.add_argument("--workdir", default=os.environ.get("CULD_BENCH_WORK", os.path.join(HERE, "work")))
    ap.add_argument("--json", metavar="FILE", help="also write results as JSON")
    ap.add_argument("--verbose", "-v", action="store_true")
    args = ap.parse_args(argv)
    if args.runs < 1:
        ap.error("--runs must be >= 1")

    culd = os.path.abspath(args.culd)
    nvlink = args.nvlink if os.path.isabs(args.nvlink) else (shutil.which(args.nvlink) or args.nvlink)
    results = []
    for name, tus, funcs in parse_sizes(args.sizes):
        wdir = os.path.join(args.workdir, "w%dx%d_s%d_k%d%s" % (
            tus, funcs, args.seed, args.kernels_per_tu, "_span%d" % args.tu_span if args.tu_span else ""))
        src = os.path.join(wdir, "src")
        objdir = os.path.join(wdir, args.arch)
        print("== %s: %d TUs x %d funcs -> %s" % (name, tus, funcs, wdir), file=sys.stderr)
        subprocess.run([sys.executable, os.path.join(HERE, "gen_workload.py"), "--tus", str(tus),
                        "--funcs", str(funcs), "--seed", str(args.seed),
                        "--kernels-per-tu", str(args.kernels_per_tu), "--tu-span", str(args.tu_span),
                        "--out", src], check=True)
        t0 = time.perf_counter()
        subprocess.run([os.path.join(HERE, "build_workload.sh"), "-a", args.arch, "-j", str(args.jobs),
                        "-o", objdir, src], check=True)
        build_s = time.perf_counter() - t0
        cubins = sorted(f for f in os.listdir(objdir) if f.endswith(".cubin") and f.startswith("tu_"))
        in_bytes = sum(os.path.getsize(os.path.join(objdir, f)) for f in cubins)
        row = {"name": name, "tus": tus, "funcs": funcs, "inputs": len(cubins),
               "input_bytes": in_bytes, "build_s": round(build_s, 2), "arch": args.arch}
        row["nvlink"] = bench_linker("nvlink", nvlink, args.arch, cubins, objdir,
                                     args.runs, args.warmup, args.verbose)
        if not args.no_culd:
            row["culd"] = bench_linker("culd", culd, args.arch, cubins, objdir,
                                       args.runs, args.warmup, args.verbose)
        for k in ("nvlink", "culd"):
            r = row.get(k, {})
            if "error" in r:
                print("   %s failed: %s" % (k, r["error"]), file=sys.stderr)
            elif r:
                print("   %s: median %.3fs wall, %.3fs cpu, peak RSS %s MiB"
                      % (k, r["median_s"], r["median_cpu_s"], fmt_mb(r["peak_rss_kib"])), file=sys.stderr)
        results.append(row)

    # ---- report
    def ok(r):
        return r is not None and "median_s" in r

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print("Link benchmark, arch %s, %d timed run(s) + %d warm-up; times are medians (wall, and CPU = "
          "user+sys); peak RSS = max ru_maxrss over runs.  Host: %s, %d CPU(s), load avg %.1f at end."
          % (args.arch, args.runs, args.warmup, platform.machine(), os.cpu_count() or 0, load))
    print()
    print("| workload | TUs x funcs | input MB | nvlink s | nvlink CPU s | nvlink RSS MiB | nvlink ms/MB "
          "| culd s | culd CPU s | culd RSS MiB | culd ms/MB | nvlink/culd |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for row in results:
        mb = row["input_bytes"] / 1048576.0
        nv, cu = row.get("nvlink"), row.get("culd")
        cells = [row["name"], "%dx%d" % (row["tus"], row["funcs"]), "%.2f" % mb]
        if ok(nv):
            cells += [fmt_s(nv["median_s"]), fmt_s(nv["median_cpu_s"]), fmt_mb(nv["peak_rss_kib"]),
                      "%.1f" % (1000 * nv["median_s"] / mb)]
        else:
            cells += ["nvlink failed: %s" % (nv or {}).get("error", "?").replace("|", "\\|"), "", "", ""]
        if cu is None:
            cells += ["not run", "", "", "", ""]
        elif ok(cu):
            cells += [fmt_s(cu["median_s"]), fmt_s(cu["median_cpu_s"]), fmt_mb(cu["peak_rss_kib"]),
                      "%.1f" % (1000 * cu["median_s"] / mb)]
            cells += ["%.2fx" % (nv["median_s"] / cu["median_s"]) if ok(nv) else ""]
            row["ratio_nvlink_over_culd"] = nv["median_s"] / cu["median_s"] if ok(nv) else None
        else:
            cells += ["culd failed: %s" % cu.get("error", "?").replace("|", "\\|"), "", "", "", ""]
        print("| " + " | ".join(cells) + " |")

    if len(results) > 1:
        print()
        print("Growth between consecutive sizes (median wall and CPU time factor; "
              "linearity = time factor / input factor, ~1.0 = linear):")
        print()
        print("| from -> to | input x | nvlink time x | nvlink CPU x | nvlink linearity "
              "| culd time x | culd CPU x | culd linearity |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        for a, b in zip(results, results[1:]):
            fin = b["input_bytes"] / float(a["input_bytes"])
            cells = ["%s -> %s" % (a["name"], b["name"]), "%.2f" % fin]
            growth = {}
            for k in ("nvlink", "culd"):
                ra, rb = a.get(k), b.get(k)
                if ok(ra) and ok(rb):
                    ft = rb["median_s"] / ra["median_s"]
                    fc = rb["median_cpu_s"] / ra["median_cpu_s"] if ra["median_cpu_s"] > 0 else float("nan")
                    cells += ["%.2f" % ft, "%.2f" % fc, "%.2f" % (ft / fin)]
                    growth[k] = ft
                    growth[k + "_cpu"] = fc
                else:
                    cells += ["-", "-", "-"]
            b["growth_from_previous"] = {"input": fin, **growth}
            print("| " + " | ".join(cells) + " |")

    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"arch": args.arch, "runs": args.runs, "warmup": args.warmup,
                       "seed": args.seed, "tu_span": args.tu_span, "nvlink": nvlink, "culd": None if args.no_culd else culd,
                       "cpus": os.cpu_count(), "results": results}, fh, indent=2)
        print("\nwrote %s" % args.json, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
