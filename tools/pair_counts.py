"""Count which pairs of adjacent instructions pyadapt executes most: the evidence for
choosing superinstructions (docs/architecture.md, "Specialization").

    python tools/pair_counts.py [--top N] script.py [script.py ...]

Builds a copy of the C core with PYADAPT_PAIR_STATS=1 in a temporary directory (the normal
build does not pay for the counting), runs each script under pyadapt in generic mode (pairs
of generic instructions: what the compiler emits and quickening can fuse), and prints the
pairs by dynamic count, marking the ones that are already superinstructions.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

DRIVER = r"""
import json, runpy, sys
import pyadapt
from pyadapt import _ffi as ffi, _lib as lib
from pyadapt._compiler import OPNAMES
assert lib.pa_pair_stats_enabled, "not a pair-counting build"
pyadapt.configure(specialize=False)
for path in list(sys.argv[2:]):
    sys.argv = [path]
    try:
        pyadapt.run(runpy.run_path, path, run_name="__main__")
    except SystemExit:
        pass
pairs = []
for a in range(lib.pa_num_opcodes):
    for b in range(lib.pa_num_opcodes):
        n = lib.pa_pair_counts[a][b]
        if n:
            pairs.append((n, OPNAMES[a], OPNAMES[b]))
json.dump(pairs, open(sys.argv_out, "w")) if False else None
"""


def build_copy(dest):
    ignore = shutil.ignore_patterns("*.so", "build", "__pycache__", ".git", "*.egg-info")
    shutil.copytree(ROOT, dest, ignore=ignore)
    env = dict(os.environ, PYADAPT_PAIR_STATS="1")
    subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=dest,
                   env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("scripts", nargs="+")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "pyadapt-pairs")
        build_copy(copy)
        out = os.path.join(tmp, "pairs.json")
        driver = DRIVER.replace(
            'json.dump(pairs, open(sys.argv_out, "w")) if False else None',
            "json.dump(pairs, open(%r, 'w'))" % out)
        env = dict(os.environ, PYTHONPATH=copy)
        subprocess.run([sys.executable, "-c", driver, "-"] +
                       [os.path.abspath(s) for s in args.scripts], env=env, check=True, cwd=tmp)
        pairs = json.load(open(out))
    sys.path.insert(0, ROOT)
    supers = set()
    src = open(os.path.join(ROOT, "csrc", "pa_opcodes.h")).read()
    for line in src.split("PA_SUPERINSTRUCTION_LIST", 1)[1].splitlines():
        line = line.strip()
        if line.startswith("PA_SUPER("):
            a, b, _s = [x.strip() for x in line[len("PA_SUPER("):line.index(")")].split(",")]
            supers.add((a, b))
    total = sum(n for n, _a, _b in pairs)
    pairs.sort(reverse=True)
    print("%12s %6s  %-28s %-28s" % ("count", "share", "first", "second"))
    for n, a, b in pairs[:args.top]:
        mark = "  (superinstruction)" if (a, b) in supers else ""
        print("%12d %5.1f%%  %-28s %-28s%s" % (n, 100.0 * n / total, a, b, mark))
    print("%12d total adjacent pairs" % total)


if __name__ == "__main__":
    main()
