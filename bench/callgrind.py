"""Instructions executed per workload call, counted by valgrind's callgrind: a measure that
other processes on a shared machine cannot disturb (times can), to go with the pyperf times.

    python -m bench.callgrind                       # all workloads, 4 modes: ~5 min on 2 cores
    python -m bench.callgrind --workloads fib,nbody --jobs 2
    python -m bench.callgrind --calls                # the cost of calling a @pyadapt.jit function
    python -m bench.callgrind --against HEAD~1 --modes adaptive --workloads fib,richards
                                                     # before/after: the working tree against a
                                                     # git revision, built in a temporary directory
    python -m bench.callgrind --workloads std:deepcopy,std:scimark_lu --modes 3.11,adaptive
                                                     # pyperformance benchmarks (std:NAME, NAME
                                                     # as bench.standard names them;
                                                     # std:base64/base85_small for one that
                                                     # an invocation of another name times)
    python -m bench.callgrind --cache-sim --workloads std:deepcopy --modes 3.11,adaptive
                                                     # with callgrind's cache and branch
                                                     # simulation: I1/D1/LL misses and
                                                     # mispredicted branches per call too

For each workload and mode (native CPython 3.10 and the running one, pyadapt generic and
adaptive on the running one) a
process runs under callgrind: it makes one warm-up call (compiling and specializing; more with
``--warmup N``, the steady state of sites that deoptimize later), then a full collection
(so that the cyclic collector runs at the same points of the counted call in every mode),
then one more call that is counted (callgrind collects only inside functools.reduce, which
makes it).  Sizes are about a tenth of the pyperf sizes (callgrind is ~50x slower).
PYTHONHASHSEED is fixed so that both processes do the same work.

An instruction count is not a time: cache misses, branch mispredictions and the cost of
each instruction differ between the loops.  It is a repeatable proxy for the work done.
``--cache-sim`` adds what the instructions cost (valgrind's --cache-sim=yes --branch-sim=yes,
a model of this machine's caches and a simple branch predictor; about 2x slower): per warm
call, first-level instruction misses (I1), first-level data read and write misses (D1r,
D1w), last-level misses (LL, instruction and data), and mispredicted conditional and
indirect branches (Bc, Bi).  Deterministic too, and the figure to read where a loop runs
fewer instructions than another and is still slower.
"""
import argparse
import concurrent.futures
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# workloads whose size is not linear in their parameter: a smaller parameter instead of SIZE/10
SMALLER = {"fib": 23, "fannkuch": 7, "nqueens": 9, "raytrace": 16, "spectral_norm": 28, "go": 6}
SCALE = 0.1


def size_of(mod, name):
    return SMALLER.get(name, max(mod.TINY, int(mod.SIZE * SCALE)))


STD = "std:"


def standard_invocation(name):
    """(pyperformance's invocation that times benchmark `name`, the benchmark's own name);
    SystemExit naming the invocations if there is none."""
    from bench import standard

    where, why = standard.locate()
    if where is None:
        raise SystemExit(why)
    found = {b.name: b for b in standard.discover(where[0])}
    # INVOCATION/NAME: one of the benchmarks an invocation times whose name does not start
    # with the invocation's (base64/base85_small)
    if "/" in name:
        owner, name = name.split("/", 1)
        found = {name: found[owner]} if owner in found else {}
    # a benchmark that one invocation times among others (deepcopy_reduce, scimark_lu,
    # logging_silent): the invocation of the longest name it starts with
    owners = [b for b in found if name == b or name.startswith(b + "_")]
    if not owners:
        raise SystemExit("no pyperformance benchmark %r (invocations: %s; one timed under "
                         "another invocation's name is INVOCATION/NAME)" % (name, ", ".join(found)))
    return found[max(owners, key=len)], name


def standard_function(name):
    """The function and arguments pyperformance's benchmark `name` times, found by running its
    script, unmodified, with a stand-in for pyperf's Runner that records what it is asked to
    time instead of timing it.  A bench_time_func function gets loops=1."""
    import argparse
    import runpy
    import types

    bench, name = standard_invocation(name)
    recorded = {}

    class Runner:
        def __init__(self, add_cmdline_args=None, **kwargs):
            self.metadata = {}
            self.argparser = argparse.ArgumentParser()

        def parse_args(self, args=None):
            self.args = self.argparser.parse_args(list(bench.args))
            return self.args

        def bench_func(self, bname, func, *args, **kwargs):
            recorded[bname] = lambda: func(*args)

        def bench_time_func(self, bname, func, *args, **kwargs):
            recorded[bname] = lambda: func(1, *args)

        def bench_async_func(self, bname, func, *args, **kwargs):
            import asyncio
            recorded[bname] = lambda: asyncio.run(func(*args))

    fake = types.ModuleType("pyperf")
    fake.Runner = Runner
    fake.perf_counter = __import__("time").perf_counter
    fake.python_implementation = lambda: sys.implementation.name   # bm_pickle asks
    sys.modules["pyperf"] = fake
    saved = sys.argv
    sys.argv = [bench.script] + list(bench.args)
    try:
        runpy.run_path(bench.script, run_name="__main__")
    finally:
        sys.argv = saved
    if name in recorded:
        return recorded[name]
    if len(recorded) == 1:
        return next(iter(recorded.values()))
    raise SystemExit("%s recorded %s, not %s" % (bench.script, sorted(recorded), name))


def child(name, mode, calls, warmup=1):
    """Runs inside callgrind: `warmup` warm-up calls, then `calls` more inside
    functools.reduce, the only C function callgrind collects in (nothing else in the process
    calls it)."""
    sys.path.insert(0, ROOT)
    core = os.environ.get("BENCH_PYADAPT_DIR")  # another build of pyadapt (counting_cost.py)
    if core:
        sys.path.insert(0, core)
    from bench import workloads

    if name.startswith(STD):
        func = standard_function(name[len(STD):])
    else:
        mod = workloads.load(name)
        n = size_of(mod, name)

        def func():
            return mod.run(n)
    if mode == "native":
        def call():
            return func()
    else:
        import pyadapt

        if core and not os.path.abspath(pyadapt.__file__).startswith(os.path.abspath(core)):
            raise SystemExit("pyadapt came from %s, not %s" % (pyadapt.__file__, core))
        pyadapt.configure(specialize=(mode == "adaptive"))

        def call():
            return pyadapt.run(func)
    import functools
    import gc

    for _ in range(warmup):
        call()
    # The counted call starts with an empty young generation in every mode, so that the
    # collections inside it come at the same allocations: otherwise where the warm-up left
    # the collector's count decides how many run inside the call (deltablue on 3.13.0: one
    # natively, two under pyadapt, 1.4 M against 8.4 M instructions of collection).
    gc.collect()
    functools.reduce(lambda acc, _: call(), range(calls), None)


CALLS = 200_000


def call_child(variant):
    """Runs inside callgrind: a native loop calling a one-line function CALLS times: a plain
    function ("plain"), a @pyadapt.jit one ("jit"), or a plain one while a jit function
    exists, so that the PEP 523 hook is installed ("hooked")."""
    import functools

    def callee(x):
        return x

    def other(x):
        return x

    def drive(f, n):
        for i in range(n):
            f(i)

    if variant != "plain":
        sys.path.insert(0, ROOT)
        import pyadapt

        pyadapt.jit(callee if variant == "jit" else other)
    drive(callee, 1000)
    functools.reduce(lambda acc, _: drive(callee, CALLS), range(1), None)


# callgrind's events with --cache-sim=yes --branch-sim=yes, and what this tool reports of them
SIM_COLUMNS = (("I1", ("I1mr",)), ("D1r", ("D1mr",)), ("D1w", ("D1mw",)),
               ("LL", ("ILmr", "DLmr", "DLmw")), ("Bc", ("Bcm",)), ("Bi", ("Bim",)))


def count(python, name, mode, calls, core_dir=None, sim=False, warmup=1, layout=0):
    """Instructions collected (an int), or with `sim` a dict of callgrind's events
    (Ir, I1mr, D1mr, ..., Bim) to their totals.  `layout`: an environment variable of
    layout * 97 bytes moves the process's stack and heap, so where objects and code land."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYADAPT")}
        env["PYTHONHASHSEED"] = "0"
        env["BENCH_LAYOUT_PAD"] = "x" * (97 * layout)
        env.pop("BENCH_PYADAPT_DIR", None)
        if core_dir:
            env["BENCH_PYADAPT_DIR"] = core_dir
        proc = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out]
            + (["--cache-sim=yes", "--branch-sim=yes"] if sim else [])
            + ["--collect-atstart=no", "--toggle-collect=functools_reduce", python,
             os.path.abspath(__file__), "--child", name, mode, str(calls),
             "--child-warmup", str(warmup)],
            capture_output=True, text=True, env=env)
        if proc.returncode != 0:
            raise RuntimeError("%s %s: %s" % (name, mode, proc.stderr[-2000:]))
        m = re.search(r"Collected\s*:\s*([\d ]+)", proc.stderr)
        if not m:
            raise RuntimeError("%s %s: no callgrind total in %s" % (name, mode, proc.stderr[-500:]))
        totals = [int(v) for v in m.group(1).split()]
        if not sim:
            return totals[0]
        events = re.search(r"Events\s*:\s*([\w ]+)", proc.stderr)
        if not events:
            raise RuntimeError("%s %s: no callgrind event names in %s" % (name, mode, proc.stderr[-500:]))
        return dict(zip(events.group(1).split(), totals))


def per_call(python, name, mode, core_dir=None, sim=False, warmup=1, layouts=1):
    """The count of one warm call; with several layouts, the run of median instructions.

    Why layouts: pyadapt's direct-mapped tables (the return and resume caches, the shared
    attribute table, the unit table) are indexed by addresses, so two hot keys can share an entry in
    one memory layout and not in another; a build at another path, or one more environment
    variable, moves every address.  point_shifted on 3.11.7 counted 42.26 M instructions in
    seven layouts of eight and 43.74 M in the eighth."""
    runs = [count(python, name, mode, 1, core_dir, sim, warmup, layout)
            for layout in range(layouts)]
    runs.sort(key=lambda r: r["Ir"] if sim else r)
    return runs[(len(runs) - 1) // 2]


def build_revision(rev, dest):
    """Build the C core of git revision `rev` (".": the working tree) in place in `dest`."""
    from bench.counting_cost import build, copy_core

    if rev == ".":
        copy_core(dest)
        build(dest)
        return
    archive = subprocess.run(["git", "-C", ROOT, "archive", rev, "csrc", "pyadapt", "setup.py",
                              "pyproject.toml", "README.md"], capture_output=True)
    if archive.returncode != 0:
        sys.exit("git archive %s: %s" % (rev, archive.stderr.decode()[-500:]))
    os.makedirs(dest)
    subprocess.run(["tar", "-x", "-C", dest], input=archive.stdout, check=True)
    build(dest)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m bench.callgrind", description=__doc__.split("\n\n")[0])
    ap.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    ap.add_argument("--child-warmup", type=int, default=1, help=argparse.SUPPRESS)
    ap.add_argument("--workloads", default="")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--python310", default="")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--against", default="", metavar="REV[,REV...]",
                    help="also count pyadapt as built from these git revisions ('.': a copy "
                         "of the working tree, leaving the in-place build alone)")
    ap.add_argument("--modes", default="", metavar="MODE[,MODE...]",
                    help="only these of 3.10, this interpreter's version (3.11, 3.12 or 3.13; "
                         "also 'native'), generic, adaptive (default: all)")
    ap.add_argument("--cache-sim", action="store_true",
                    help="also simulate the caches and branch prediction: misses and "
                         "mispredicts per call next to the instructions (about 2x slower)")
    ap.add_argument("--warmup", type=int, default=1, metavar="N",
                    help="warm-up calls before the counted one (default 1: compiled and "
                         "specialized once; more shows the steady state, where sites that "
                         "deoptimize later have done so)")
    ap.add_argument("--layouts", type=int, default=1, metavar="N",
                    help="count each in N memory layouts and report the median run (see "
                         "per_call: addresses decide which hot keys share a cache entry)")
    ap.add_argument("--calls", action="store_true",
                    help="instead: what calling a @pyadapt.jit function from native code costs")
    args = ap.parse_args(argv)
    if args.child:
        name, mode, calls = args.child
        if name == "__calls__":
            call_child(mode)
        else:
            child(name, mode, int(calls), args.child_warmup)
        return 0
    if args.calls:
        per = {v: count(os.path.realpath(sys.executable), "__calls__", v, 1) / CALLS
               for v in ("plain", "jit", "hooked")}
        print("machine instructions per iteration of a native loop calling f (callgrind): plain f "
              "%.0f, @pyadapt.jit f %.0f (+%.0f), plain f while the hook is installed "
              "%.0f (+%.0f)" % (per["plain"], per["jit"], per["jit"] - per["plain"],
                                per["hooked"], per["hooked"] - per["plain"]))
        return 0

    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    from bench import run as bench_run
    from bench import workloads

    if not shutil.which("valgrind"):
        sys.exit("valgrind is not installed (apt-get install valgrind)")
    names = [n for n in args.workloads.split(",") if n] or list(workloads.NAMES)
    for name in names:   # a wrong name fails now, not after the others have run under valgrind
        if name.startswith(STD):
            standard_invocation(name[len(STD):])
    # this interpreter, labelled with its version (or "native"); a venv's python as it is, so
    # that the children see the venv's packages (its realpath is the base interpreter's)
    this = "%d.%d" % sys.version_info[:2]
    in_venv = sys.prefix != sys.base_prefix
    pythons = {this: sys.executable if in_venv else os.path.realpath(sys.executable)}
    py310, why = bench_run.find_python310(args.python310)
    if py310:
        pythons["3.10"] = os.path.realpath(py310)
    else:
        print("CPython 3.10 skipped: %s" % why)
    wanted = [this if m == "native" else m for m in args.modes.split(",") if m]
    modes = [(label, py, mode, None) for label, py, mode in (
        ("3.10", pythons.get("3.10"), "native"), (this, pythons[this], "native"),
        ("generic", pythons[this], "generic"), ("adaptive", pythons[this], "adaptive"))
        if py and (not wanted or label in wanted)]
    revisions = [r for r in args.against.split(",") if r]

    with tempfile.TemporaryDirectory(prefix="pyadapt-revisions-") as tmp:
        for i, rev in enumerate(revisions):
            dest = os.path.join(tmp, str(i))
            build_revision(rev, dest)
            modes += [("%s@%s" % (mode, rev), py, mode, dest)
                      for label, py, mode, core in list(modes) if core is None and mode != "native"]
        jobs = {}
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            for name in names:
                for label, py, mode, core in modes:
                    jobs[name, label] = pool.submit(per_call, py, name, mode, core, args.cache_sim,
                                                     args.warmup, max(1, args.layouts))
            results = {key: fut.result() for key, fut in jobs.items()}
    if args.cache_sim:
        sims, results = results, {key: ev["Ir"] for key, ev in results.items()}

    labels = [m[0] for m in modes]
    ratios = [(a, b) for a, b in (("adaptive", "generic"), ("adaptive", this),
                                  ("adaptive", "3.10"), (this, "3.10"))
              if a in labels and b in labels]
    ratios += [(mode, label) for label, py, mode, core in modes if core is not None]
    header = ["workload", "size"] + ["%s (M instr)" % lbl for lbl in labels] + ["%s/%s" % r for r in ratios]
    rows = []
    logs = {r: [] for r in ratios}
    for name in names:
        if name.startswith(STD):
            row = [name, "pyperf"]
        else:
            mod = workloads.load(name)
            row = [name, str(size_of(mod, name))]
        row += ["%.1f" % (results[name, lbl] / 1e6) for lbl in labels]
        for a, b in ratios:
            r = results[name, a] / results[name, b]
            logs[a, b].append(math.log(r))
            row.append("%.2f" % r)
        rows.append(row)
    rows.append(["geometric mean", ""] + [""] * len(labels)
                + ["%.2f" % math.exp(sum(v) / len(v)) for v in logs.values()])
    from bench.report import _table

    print("instructions per warm workload call (callgrind, after %d warm-up call%s%s), below 1.00 = "
          "the first named does less work" % (args.warmup, "" if args.warmup == 1 else "s",
                                              ", median of %d memory layouts" % args.layouts
                                              if args.layouts > 1 else ""))
    print(_table(header, rows, args.markdown))
    if args.cache_sim:
        print()
        print("simulated misses per warm workload call (callgrind --cache-sim=yes --branch-sim=yes), "
              "thousands: I1 instruction fetch, D1r/D1w first-level data read/write, LL last level, "
              "Bc/Bi mispredicted conditional/indirect branches; ratios against the first mode")
        header = ["workload", "mode", "M instr"] + [c for c, _ in SIM_COLUMNS] + [
            "%s/%s" % (c, labels[0]) for c in ("instr", "I1", "D1r", "Bc+Bi")]
        rows = []
        for name in names:
            base = sims[name, labels[0]]
            for lbl in labels:
                ev = sims[name, lbl]
                row = [name, lbl, "%.2f" % (ev["Ir"] / 1e6)]
                row += ["%.1f" % (sum(ev.get(e, 0) for e in events) / 1e3) for _, events in SIM_COLUMNS]
                for events in (("Ir",), ("I1mr",), ("D1mr",), ("Bcm", "Bim")):
                    a = sum(ev.get(e, 0) for e in events)
                    b = sum(base.get(e, 0) for e in events)
                    row.append("%.2f" % (a / b) if b else "-")
                rows.append(row)
        print(_table(header, rows, args.markdown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
