"""What pyadapt's always-on statistics counting costs, in machine instructions.

    python -m bench.counting_cost [--workloads a,b] [--jobs 2]

pyadapt has no switch to turn its counters off, so this builds two copies of the C core from
the working tree in a temporary directory -- one with every counter (built with
PYADAPT_COUNT_INSTRUCTIONS=1, which adds the per-instruction count in DISPATCH that a normal
build leaves out), one with the counters compiled out (the per-site hit count of specialized
forms, the adaptive countdown count, and the frame and inlined-call counts) -- and counts the machine
instructions of one warm workload call with each under callgrind (see bench/callgrind.py),
in adaptive and generic mode.  Needs valgrind and a C compiler; takes about 6 minutes.

The counters are removed by editing the source text; if the core changed so that an edit
no longer applies, the script stops and says which one.  Instruction counts are a proxy:
the counters are memory increments, which cost a little more than their share of
instructions.
"""
import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# (file, text, replacement): the counting statements of csrc/pa_eval.c
EDITS = (
    ("csrc/pa_eval.c", "#define STAT_HIT() (this_instr[2]++)", "#define STAT_HIT() ((void)0)"),
    ("csrc/pa_eval.c", "        pa_op_stats[*this_instr & 0xFF].deferred++; \\\n", ""),
    ("csrc/pa_eval.c", "pa_stats.frames++;", ";"),
    ("csrc/pa_eval.c", "pa_stats.inlined_calls++;", ";"),
)
WORKLOADS = ("point_shifted", "nbody", "richards", "fib", "globals_builtins", "generators",
             "polymorphic", "deltablue")


def copy_core(dest):
    os.makedirs(dest)
    for name in ("csrc", "pyadapt"):
        shutil.copytree(os.path.join(ROOT, name), os.path.join(dest, name),
                        ignore=shutil.ignore_patterns("*.so", "__pycache__", "_pyadapt.c"))
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(os.path.join(ROOT, name), dest)


def build(dest, env=None):
    proc = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=dest,
                          capture_output=True, text=True,
                          env=None if env is None else dict(os.environ, **env))
    if proc.returncode != 0:
        sys.exit("building %s failed:\n%s" % (dest, proc.stderr[-3000:]))


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m bench.counting_cost",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--workloads", default=",".join(WORKLOADS))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args(argv)
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    from bench import callgrind

    if not shutil.which("valgrind"):
        sys.exit("valgrind is not installed (apt-get install valgrind)")
    names = [n for n in args.workloads.split(",") if n]
    python = os.path.realpath(sys.executable)
    with tempfile.TemporaryDirectory(prefix="pyadapt-counting-") as tmp:
        with_dir = os.path.join(tmp, "with")
        without_dir = os.path.join(tmp, "without")
        copy_core(with_dir)
        copy_core(without_dir)
        for path, old, new in EDITS:
            full = os.path.join(without_dir, path)
            with open(full) as f:
                text = f.read()
            if old not in text:
                sys.exit("counting_cost: %s no longer contains %r: update EDITS" % (path, old))
            with open(full, "w") as f:
                f.write(text.replace(old, new))
        print("building both copies of the C core ...", flush=True)
        build(with_dir, {"PYADAPT_COUNT_INSTRUCTIONS": "1"})
        build(without_dir)
        jobs = {}
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            for name in names:
                for mode in ("adaptive", "generic"):
                    for label, core in (("with", with_dir), ("without", without_dir)):
                        jobs[name, mode, label] = pool.submit(callgrind.count, python, name,
                                                              mode, 1, core)
            rows = []
            for name in names:
                row = [name]
                for mode in ("adaptive", "generic"):
                    a = jobs[name, mode, "with"].result()
                    b = jobs[name, mode, "without"].result()
                    row += ["%.1f" % (a / 1e6), "%.1f" % (b / 1e6), "%.1f%%" % ((a - b) / a * 100)]
                rows.append(row)
    from bench.report import _table

    print("machine instructions per warm call (callgrind, millions), with and without counters:")
    print(_table(["workload", "adaptive", "no counters", "counting", "generic", "no counters",
                  "counting"], rows, False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
