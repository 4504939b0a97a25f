"""Run pyadapt's benchmark suite: every workload natively on CPython 3.11, under pyadapt in
generic mode (specialization off), under pyadapt in adaptive mode, and natively on CPython
3.10 as a second baseline; the same for pyperformance's benchmark scripts (the standard
suite, bench/standard.py); then pyadapt's own costs; then print the tables.

    python -m bench                 # full run (own workloads about 20-25 minutes on 2 cores;
                                    # pyperformance's scripts an estimated 6-7 hours more)
    python -m bench --fast          # rough answer (own workloads under 5 minutes, with
                                    # pyperformance's about an hour)
    python -m bench --workloads nbody,fib --no-costs
    python -m bench --pyperformance none          # only the own workloads
    python -m bench --workloads none --pyperformance richards,float --modes native,adaptive
    python -m bench --report bench/results/latest    # the tables of an earlier run again

Every (workload, mode) pair is a pyperf invocation of bench/worker.py, and pyperf spawns
its worker processes from it, so the modes never share a process.  A full run makes five
rounds over all pairs (4 worker processes each time, 20 in all per pair), so that every
mode of a workload is measured close in time to the others and a change in the load of a
shared machine reaches all modes alike.  Results are pyperf JSON files, one per mode, in bench/results/<date-time>/
(bench/results/latest points at the newest):

    native.json  generic.json  adaptive.json  native-3.10.json  costs.json  table.txt  table.md
    pyperformance-native.json  pyperformance-generic.json  ...   (the standard suite)

so that, for example, ``python -m pyperf compare_to native.json adaptive.json --table`` works.
The standard suite has files of its own because its benchmark names (nbody, richards, go,
...) are those of pyperformance, several of which the own workloads also use.  Each of its
scripts runs as a whole program, natively or as ``python -m pyadapt script`` (see
bench/standard.py); the modes interleave script by script and round by round as above.
"""
import argparse
import datetime
import os
import runpy
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from bench import report, standard, workloads  # noqa: E402

WORKER = os.path.join(HERE, "worker.py")
COSTS = os.path.join(HERE, "costs.py")
RESULTS = os.path.join(HERE, "results")
PY310_VERSION = "3.10.13"

# (file stem, worker --mode, which interpreter)
MODES = (
    ("native-3.10", "native", "py310"),
    ("native", "native", "py311"),
    ("generic", "generic", "py311"),
    ("adaptive", "adaptive", "py311"),
)

# pyperf settings per invocation, values of at least 50 ms (one or two workload calls).
# Full: 5 rounds of 4 worker processes (pyperf's usual 20 processes per benchmark) of
# 1 warmup + 3 values; fast: 1 round of 3 processes of 1 warmup + 2 values.
FULL_ROUNDS, FULL_PYPERF = 5, ["--processes", "4", "--values", "3", "--warmups", "1",
                               "--min-time", "0.05"]
FAST_ROUNDS, FAST_PYPERF = 1, ["--processes", "3", "--values", "2", "--warmups", "1",
                               "--min-time", "0.05"]
FULL_COSTS = ["--processes", "10", "--values", "3", "--warmups", "1"]
FAST_COSTS = ["--processes", "3", "--values", "2", "--warmups", "1"]

STRIP_ENV = ("PYADAPT", "PYADAPT_SPECIALIZE", "PYADAPT_WARMUP")


def clean_env():
    """The environment of every benchmark process: never started under pyadapt by a .pth."""
    env = dict(os.environ)
    for var in STRIP_ENV:
        env.pop(var, None)
    return env


def log(msg):
    print(msg, flush=True)


# ---- CPython 3.10 ----------------------------------------------------------------------


def find_python310(explicit):
    """The CPython 3.10 interpreter to use, or (None, why not)."""
    if explicit:
        return (explicit, None) if os.path.exists(explicit) else (None, "%s does not exist" % explicit)
    env = os.environ.get("PYADAPT_BENCH_PYTHON310")
    if env:
        return (env, None) if os.path.exists(env) else (None, "PYADAPT_BENCH_PYTHON310=%s does not exist" % env)
    if shutil.which("pyenv"):
        for version in (PY310_VERSION, "3.10"):
            try:
                prefix = subprocess.run(["pyenv", "prefix", version], capture_output=True,
                                        text=True, timeout=60).stdout.strip()
            except (OSError, subprocess.SubprocessError):
                prefix = ""
            exe = os.path.join(prefix, "bin", "python") if prefix else ""
            if exe and os.path.exists(exe):
                return exe, None
    exe = shutil.which("python3.10")
    if exe:
        return exe, None
    return None, "no CPython 3.10 found (pyenv %s, python3.10 on PATH, --python310 PATH)" % PY310_VERSION


def ensure_pyperf(python):
    """Make `import pyperf` work in `python`, installing it with pip if needed: None or why not."""
    check = [python, "-c", "import sys, pyperf; assert sys.version_info[:2] == (3, 10)"]
    if subprocess.run(check, capture_output=True, env=clean_env()).returncode == 0:
        return None
    import pyperf

    log("CPython 3.10 has no pyperf: installing it (%s -m pip install pyperf==%s)"
        % (python, pyperf.__version__))
    for spec in ("pyperf==%s" % pyperf.__version__, "pyperf"):
        proc = subprocess.run([python, "-m", "pip", "install", "--quiet", spec],
                              capture_output=True, text=True, env=clean_env())
        if proc.returncode == 0 and subprocess.run(check, capture_output=True,
                                                   env=clean_env()).returncode == 0:
            return None
    tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["?"]
    return "could not install pyperf into %s: %s" % (python, tail[0])


def pyadapt_build():
    """Which pyadapt was measured: the commit, and whether the C core differs from it."""
    def git(*a):
        try:
            return subprocess.run(("git",) + a, cwd=ROOT, capture_output=True, text=True,
                                  timeout=30).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""

    head = git("rev-parse", "--short", "HEAD")
    if not head:
        return "unknown (not a git checkout)"
    dirty = git("status", "--porcelain", "--", "csrc", "pyadapt")
    return head + (" + uncommitted changes to csrc/ or pyadapt/" if dirty else "")


# ---- running ---------------------------------------------------------------------------


def loops_of(path, name):
    """The loop count pyperf calibrated for `name` in the first round."""
    import pyperf

    try:
        bench = pyperf.BenchmarkSuite.load(path).get_benchmark(name)
    except (OSError, KeyError, ValueError):
        return None
    for run in bench.get_runs():
        loops = run.get_metadata().get("loops")
        if loops:
            return loops
    return None


def summary_of(output):
    lines = [ln for ln in output.splitlines() if ":" in ln and "+-" in ln]
    if not lines:
        return "ok"
    return lines[-1].split(":", 1)[-1].replace("Mean +- std dev:", "").strip()


def run_pyperf(cmd, what, attempts=2):
    """One pyperf invocation; tried again once after a failure (the C core may be being
    rebuilt under us, which makes an import fail for a moment).  pyperf writes its JSON
    only when it succeeds, so a failed attempt leaves nothing behind."""
    t0 = time.monotonic()
    for attempt in range(attempts):
        proc = subprocess.run(cmd, env=clean_env(), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
        if proc.returncode == 0:
            break
        if attempt + 1 < attempts:
            log("  %s failed (exit %d), trying again in 10 s" % (what, proc.returncode))
            time.sleep(10)
    elapsed = time.monotonic() - t0
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip() and set(ln.strip()) != {"."}]
    if proc.returncode != 0:
        log("FAILED: %s (exit %d)\n  %s\n%s" % (what, proc.returncode, " ".join(cmd),
                                               "\n".join("  | " + ln for ln in lines)))
        return None, elapsed
    return summary_of(proc.stdout), elapsed


def run_standard(bench, stem, mode, python, out, pyperf_opts, loops):
    """One round of one pyperformance script in one mode: (summary, loops) or (None, None)."""
    import pyperf

    what = "%s/%s" % (bench.name, stem)
    tmp = os.path.join(out, ".%s.tmp.json" % stem)
    if os.path.exists(tmp):
        os.remove(tmp)
    opts = list(pyperf_opts) + (["--loops", str(loops)] if loops else [])
    summary, _ = run_pyperf(standard.command(bench, mode, python, tmp, opts), what)
    if summary is None:
        return None, None
    suite = pyperf.BenchmarkSuite.load(tmp)
    os.remove(tmp)
    why = standard.check(suite, mode)
    if why:
        log("FAILED: %s: %s" % (what, why))
        return None, None
    standard.merge(os.path.join(out, report.STANDARD_PREFIX + stem + ".json"), suite)
    return summary, standard.single_loops(suite)


def select_standard(arg):
    """(benchmarks, pyperformance version, why skipped) for --pyperformance ARG."""
    if arg == "none":
        return [], None, None
    found, why = standard.locate()
    if found is None:
        return [], None, why
    root, version = found
    if not standard.hook_installed():
        return [], version, ("pyadapt's pyperf hook is not registered (reinstall pyadapt: %s)"
                             % standard.INSTALL_HINT)
    benches = standard.discover(root)
    if arg != "all":
        wanted = [n for n in arg.split(",") if n]
        by_name = {b.name: b for b in benches}
        unknown = [n for n in wanted if n not in by_name]
        if unknown:
            sys.exit("unknown pyperformance benchmark(s): %s (have: %s)"
                     % (", ".join(unknown), ", ".join(by_name)))
        benches = [by_name[n] for n in wanted]
    return benches, version, None


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fast", action="store_true", help="a rough answer in a few minutes")
    ap.add_argument("--workloads", default="",
                    help="comma-separated subset (default: all), or none: " + ", ".join(workloads.NAMES))
    ap.add_argument("--pyperformance", default="all", metavar="NAMES",
                    help="pyperformance benchmarks to run: all (default: those needing no "
                    "third-party package or network), none, or comma-separated names")
    ap.add_argument("--modes", default="native-3.10,native,generic,adaptive",
                    help="comma-separated subset of native-3.10,native,generic,adaptive")
    ap.add_argument("--python310", default="", help="CPython 3.10 to use (default: pyenv's %s)"
                    % PY310_VERSION)
    ap.add_argument("--no-py310", action="store_true", help="skip the CPython 3.10 baseline")
    ap.add_argument("--no-costs", action="store_true", help="skip pyadapt's own costs")
    ap.add_argument("--no-programs", action="store_true",
                    help="skip the whole-programs table (bench/programs.py)")
    ap.add_argument("--out", default="", help="result directory (default: bench/results/<date-time>)")
    ap.add_argument("--report", metavar="DIR", default="",
                    help="only print the tables of the results in DIR")
    ap.add_argument("--rounds", type=int, default=0,
                    help="rounds over all benchmarks and modes (default: %d, --fast %d)"
                    % (FULL_ROUNDS, FAST_ROUNDS))
    ap.add_argument("--pyperf", default="", help="extra pyperf options, e.g. '--processes 6'")
    args = ap.parse_args(argv)

    if args.report:
        text, md = report.render(args.report)
        print(text)
        return 0

    # pyadapt/_versions.py by path, as setup.py does: `import pyadapt` itself refuses
    refusal = runpy.run_path(os.path.join(ROOT, "pyadapt", "_versions.py"))["refusal"]()
    if refusal is not None:
        sys.exit(refusal)
    if args.workloads == "none":
        names = []
    else:
        names = [n for n in args.workloads.split(",") if n] or list(workloads.NAMES)
    for n in names:
        workloads.load(n)
    wanted = [m for m in args.modes.split(",") if m]
    unknown = set(wanted) - {m[0] for m in MODES}
    if unknown:
        sys.exit("unknown mode(s): %s" % ", ".join(sorted(unknown)))
    modes = [m for m in MODES if m[0] in wanted]

    started = time.monotonic()
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    out = os.path.abspath(args.out or os.path.join(RESULTS, stamp))
    os.makedirs(out, exist_ok=True)
    for m in modes:
        path = os.path.join(out, m[0] + ".json")
        if os.path.exists(path):
            os.remove(path)

    std_benches, std_version, skipped_std = select_standard(args.pyperformance)
    if skipped_std:
        log("pyperformance benchmarks SKIPPED: %s" % skipped_std)
    for m in modes:
        path = os.path.join(out, report.STANDARD_PREFIX + m[0] + ".json")
        if os.path.exists(path):
            os.remove(path)

    interpreters = {"py311": sys.executable}
    skipped_310 = None
    if any(m[2] == "py310" for m in modes):
        py310, why = (None, "--no-py310") if args.no_py310 else find_python310(args.python310)
        if py310:
            why = ensure_pyperf(py310)
        if why:
            log("CPython 3.10 baseline SKIPPED: %s" % why)
            skipped_310 = why
            modes = [m for m in modes if m[2] != "py310"]
        else:
            interpreters["py310"] = py310

    rounds = args.rounds or (FAST_ROUNDS if args.fast else FULL_ROUNDS)
    pyperf_opts = list(FAST_PYPERF if args.fast else FULL_PYPERF) + args.pyperf.split()
    log("pyadapt benchmarks: %d workloads + %d pyperformance %s benchmarks x %d modes (%s), "
        "%s run: %d round(s) of pyperf %s; results in %s"
        % (len(names), len(std_benches), std_version or "-", len(modes),
           ", ".join(m[0] for m in modes), "fast" if args.fast else "full", rounds,
           " ".join(pyperf_opts), out))
    # Round by round, workload by workload, mode by mode: every mode of a workload is
    # measured close in time to the others, so a change in the machine's load (it is
    # shared) reaches all of them.  pyperf --append adds each round's runs to the same
    # benchmark; rounds after the first reuse the first round's calibrated loop count.
    failures = []
    std_loops = {}
    for rnd in range(rounds):
        for name in names:
            t0 = time.monotonic()
            results = []
            for stem, mode, interp in modes:
                if "%s/%s" % (name, stem) in failures:
                    continue
                path = os.path.join(out, stem + ".json")
                cmd = [interpreters[interp], WORKER, "--mode", mode, "--workloads", name,
                       "--quiet", "--append", path] + pyperf_opts
                loops = loops_of(path, name) if rnd else None
                if loops:
                    cmd += ["--loops", str(loops)]
                summary, _ = run_pyperf(cmd, "%s/%s" % (name, stem))
                if summary is None:
                    failures.append("%s/%s" % (name, stem))
                    summary = "FAILED"
                results.append("%s %s" % (stem, summary))
            log("[%d/%d] %-17s %s  [%.0f s]" % (rnd + 1, rounds, name, ", ".join(results),
                                              time.monotonic() - t0))
        for bench in std_benches:
            t0 = time.monotonic()
            results = []
            for stem, mode, interp in modes:
                what = "%s/%s" % (bench.name, stem)
                if what in failures:
                    continue
                summary, loops = run_standard(bench, stem, mode, interpreters[interp], out,
                                              pyperf_opts, std_loops.get(what))
                if summary is None:
                    failures.append(what)
                    summary = "FAILED"
                elif not rnd and loops:
                    std_loops[what] = loops
                results.append("%s %s" % (stem, summary))
            log("[%d/%d] pp %-14s %s  [%.0f s]" % (rnd + 1, rounds, bench.name,
                                                 ", ".join(results), time.monotonic() - t0))

    if not args.no_costs:
        log("pyadapt's own costs:")
        cmd = [sys.executable, COSTS, "--quiet", "-o", os.path.join(out, "costs.json")]
        cmd += list(FAST_COSTS if args.fast else FULL_COSTS) + args.pyperf.split()
        summary, elapsed = run_pyperf(cmd, "costs")
        if summary is None:
            failures.append("costs")
        else:
            log("  done [%.0f s]" % elapsed)

    if not args.no_programs:
        from bench import programs

        log("whole programs (python vs python -m pyadapt):")
        t0 = time.monotonic()
        try:
            programs.save(os.path.join(out, "programs.json"), list(programs.PROGRAMS),
                          programs.FAST_ROUNDS if args.fast else programs.FULL_ROUNDS,
                          sys.executable, log=log)
            log("  done [%.0f s]" % (time.monotonic() - t0))
        except RuntimeError as exc:
            log("FAILED: whole programs: %s" % exc)
            failures.append("programs")

    elapsed = time.monotonic() - started
    report.write_run_info(out, {
        "command": " ".join(["python -m bench"] + list(sys.argv[1:] if argv is None else argv)),
        "elapsed_s": round(elapsed, 1),
        "fast": args.fast,
        "pyperf_options": "%d x (%s)" % (rounds, " ".join(pyperf_opts)),
        "py310_skipped": skipped_310,
        "pyperformance": std_version,
        "pyperformance_skipped": skipped_std,
        "failures": failures,
        "pyadapt_build": pyadapt_build(),
    })
    text, md = report.render(out)
    with open(os.path.join(out, "table.txt"), "w") as f:
        f.write(text + "\n")
    with open(os.path.join(out, "table.md"), "w") as f:
        f.write(md + "\n")
    latest = os.path.join(RESULTS, "latest")
    if os.path.dirname(out) == RESULTS:
        try:
            if os.path.islink(latest) or os.path.exists(latest):
                os.remove(latest)
            os.symlink(os.path.basename(out), latest)
        except OSError:
            pass
    print()
    print(text)
    log("\ntotal time %.1f min; results: %s" % (elapsed / 60, out))
    for prefix in ("", report.STANDARD_PREFIX):
        if os.path.exists(os.path.join(out, prefix + "adaptive.json")):
            log("compare two modes: python -m pyperf compare_to %s %s --table"
                % (os.path.join(out, prefix + "native.json"),
                   os.path.join(out, prefix + "adaptive.json")))
    if failures:
        log("FAILED: %s" % ", ".join(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
