"""Steady-state times per workload call, and how they compare with the instructions executed.

    python -m bench.steady                                  # all workloads, native and adaptive
    python -m bench.steady --workloads deltablue,richards --rounds 8
    python -m bench.steady --instructions                   # also callgrind's instruction ratio,
                                                            # and the gap between the two
    python -m bench.steady --against /path/to/other/tree    # a second pyadapt build (A/B)

pyperf's values (``python -m bench``) are what a user sees, and on this VM they move by 10-25%
between runs: a process's first values pay for warm-up, and where the cyclic collector's
runs fall relative to a workload's garbage decides how much each full collection walks (the
same workload, natively, took 53-101 ms of full collections over 12 calls depending only on
how many objects were allocated before it started).  This tool asks a narrower question with
less noise: how fast is the loop once warm?  Each process makes three warm-up calls, then
times ``--calls`` calls with the collector disabled and a full collection before each (``--gc``
leaves it on); processes of the modes alternate, ``--rounds`` times.  Reported per workload and
mode: the fastest call (the least disturbed by other processes) and the median, with the
spread of the per-process medians, and ratios to native of both.

``--instructions`` adds ``bench.callgrind``'s count of one warm call (at its tenth of the size)
for native and adaptive, and the gap: time ratio / instruction ratio.  A gap above 1 means
pyadapt's instructions each cost more time than CPython's (cache misses, mispredicted
branches, longer dependency chains), which callgrind does not see.  No timing assertions
anywhere: this prints figures.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
WARMUP_CALLS = 3


def child(name, mode, calls, gc_on, tree, tiny=False):
    """One process: warm-up calls, then `calls` timed calls; prints their times as JSON.
    Under pyadapt, fails unless pyadapt's loop ran frames during the timed calls."""
    import gc
    import time

    if tree:
        sys.path.insert(0, tree)
    sys.path.insert(1 if tree else 0, ROOT)
    from bench import workloads

    mod = workloads.load(name)
    n = mod.TINY if tiny else mod.SIZE
    frames = None
    if mode == "native":
        def call():
            return mod.run(n)
    else:
        import pyadapt

        if tree and not os.path.abspath(pyadapt.__file__).startswith(os.path.abspath(tree)):
            raise SystemExit("pyadapt came from %s, not %s" % (pyadapt.__file__, tree))
        pyadapt.configure(specialize=(mode != "generic"))

        def call():
            return pyadapt.run(mod.run, n)

        def frames():
            return pyadapt.stats()["frames"]
    if not gc_on:
        gc.disable()
    for _ in range(WARMUP_CALLS):
        call()
    before = frames() if frames else 0
    times = []
    for _ in range(calls):
        if not gc_on:
            gc.collect()
        t = time.perf_counter()
        call()
        times.append(time.perf_counter() - t)
    if frames and frames() == before:
        raise SystemExit("%s %s: pyadapt's loop ran no frame in the timed calls" % (name, mode))
    print(json.dumps(times))


def run_child(python, name, mode, calls, gc_on, tree, tiny=False):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYADAPT")}
    env["PYTHONHASHSEED"] = "0"
    proc = subprocess.run([python, os.path.abspath(__file__), "--child", name, mode, str(calls),
                           "1" if gc_on else "0", tree or "", "1" if tiny else "0"],
                          capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise RuntimeError("%s %s: %s" % (name, mode, proc.stderr[-2000:]))
    return json.loads(proc.stdout)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workloads", default="all", help="comma-separated subset (default: all)")
    ap.add_argument("--modes", default="native,adaptive",
                    help="comma-separated subset of native, generic, adaptive (native first: "
                         "the ratios are to it)")
    ap.add_argument("--against", metavar="DIR",
                    help="another pyadapt tree, built in place for this interpreter: its "
                         "adaptive mode is one more column (adaptive@B)")
    ap.add_argument("--rounds", type=int, default=5, help="processes per workload and mode")
    ap.add_argument("--calls", type=int, default=10, help="timed calls per process")
    ap.add_argument("--gc", action="store_true", help="leave the cyclic collector on")
    ap.add_argument("--instructions", action="store_true",
                    help="also count one warm call of native and adaptive under callgrind")
    ap.add_argument("--tiny", action="store_true",
                    help="each workload's TINY size instead of SIZE (a smoke test, not a timing)")
    ap.add_argument("--child", nargs=6, help=argparse.SUPPRESS)
    ns = ap.parse_args(argv)
    if ns.child:
        name, mode, calls, gc_on, tree, tiny = ns.child
        return child(name, mode, int(calls), gc_on == "1", tree, tiny == "1")

    sys.path.insert(0, ROOT)
    from bench import workloads

    names = workloads.NAMES if ns.workloads == "all" else ns.workloads.split(",")
    unknown = [n for n in names if n not in workloads.NAMES]
    if unknown:
        raise SystemExit("unknown workloads: %s (known: %s)" % (", ".join(unknown),
                                                               ", ".join(workloads.NAMES)))
    modes = [(m, None) for m in ns.modes.split(",")]
    if any(m not in ("native", "generic", "adaptive") for m, _ in modes):
        raise SystemExit("--modes: native, generic, adaptive")
    if ns.against:
        if not os.path.isdir(os.path.join(ns.against, "pyadapt")):
            raise SystemExit("--against %s: no pyadapt package there" % ns.against)
        modes.append(("adaptive", os.path.abspath(ns.against)))
    label = {m: (m[0] if m[1] is None else "adaptive@B") for m in modes}
    python = sys.executable
    times = {(n, m): [] for n in names for m in modes}
    medians = {(n, m): [] for n in names for m in modes}
    for r in range(ns.rounds):
        for name in names:
            order = modes if r % 2 == 0 else modes[::-1]
            for m in order:
                v = run_child(python, name, m[0], ns.calls, ns.gc, m[1], ns.tiny)
                times[(name, m)] += v
                medians[(name, m)].append(statistics.median(v))
        print("  round %d of %d" % (r + 1, ns.rounds), file=sys.stderr, flush=True)

    instr = {}
    if ns.instructions:
        from bench import callgrind

        for name in names:
            for mode in ("native", "adaptive"):
                instr[(name, mode)] = callgrind.count(python, name, mode, 1)

    base = modes[0]
    header = ["workload", "mode", "min ms", "median ms", "process medians", "min/%s" % label[base],
              "median/%s" % label[base]]
    if instr:
        header += ["instr/native", "gap"]
    rows = []
    for name in names:
        bmin = min(times[(name, base)])
        bmed = statistics.median(times[(name, base)])
        for m in modes:
            t = times[(name, m)]
            pm = medians[(name, m)]
            row = [name, label[m], "%.2f" % (min(t) * 1e3), "%.2f" % (statistics.median(t) * 1e3),
                   "%.1f-%.1f" % (min(pm) * 1e3, max(pm) * 1e3),
                   "%.3f" % (min(t) / bmin), "%.3f" % (statistics.median(t) / bmed)]
            if instr:
                if m == ("adaptive", None) and base == ("native", None):
                    ir = instr[(name, "adaptive")] / instr[(name, "native")]
                    row += ["%.3f" % ir, "%.3f" % (statistics.median(t) / bmed / ir)]
                else:
                    row += ["", ""]
            rows.append(row)
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
    print("  ".join("-" * w for w in widths))
    for row in rows:
        print("  ".join(str(x).ljust(w) for x, w in zip(row, widths)))
    print("%d processes per workload and mode, %d timed calls each after %d warm-up calls, "
          "collector %s; ratios below 1.00: faster than %s" % (
              ns.rounds, ns.calls, WARMUP_CALLS, "on" if ns.gc else "off (a full collection "
              "before each call)", label[base]))
    if instr:
        print("instr/native: callgrind, one warm call at a tenth of the size; gap: median "
              "time ratio / instruction ratio")


if __name__ == "__main__":
    main()
