"""The standard suite: pyperformance's own benchmark scripts, unmodified, for bench/run.py.

The scripts come from the installed ``pyperformance`` package (``pip install -e '.[bench]'``
pins the version), under pyperformance/data-files/benchmarks/bm_*/run_benchmark.py.  Each
of pyperformance's benchmarks is one metafile there (bm_X/pyproject.toml, or
bm_X/bm_VARIANT.toml with the script's extra arguments) and one invocation of the script,
which may time several pyperf benchmarks (deepcopy: deepcopy, deepcopy_reduce,
deepcopy_memo).  Kept are those whose metafile declares no dependency but pyperf, with no
requirements.txt and a requires-python this CPython meets, minus EXCLUDED.

Each script runs as its own pyperf program, in pyperf's worker protocol:

    native    python run_benchmark.py ARGS
    generic   python -m pyadapt --generic run_benchmark.py ARGS --hook pyadapt --inherit-environ ...
    adaptive  python -m pyadapt run_benchmark.py ARGS --hook pyadapt --inherit-environ ...

``python -m pyadapt`` puts PYADAPT=1 (and PYADAPT_SPECIALIZE=0 for --generic) into the
environment; ``--inherit-environ`` makes pyperf pass them on to the worker processes it
spawns (``sys.executable run_benchmark.py --worker ...``), where pyadapt-autostart.pth starts
pyadapt before the script runs, so the whole worker -- script, pyperf and its timing loop --
runs in pyadapt.  ``--hook pyadapt`` (pyadapt/_pyperf_hook.py) records in each run whether
pyadapt was enabled, its mode and its counters over the timed calls; ``check`` reads them
back and fails the invocation when a worker ran natively or in the wrong mode.
"""
import glob
import importlib.metadata
import importlib.util
import os
import sys
import tomllib
from collections import namedtuple

PACKAGE = "pyperformance"
INSTALL_HINT = "pip install -e '.[bench]'"
INHERIT = "PYADAPT,PYADAPT_SPECIALIZE,PYADAPT_WARMUP"

# Benchmarks that meet the rule above but are not run, and why.
EXCLUDED = {
    "asyncio_tcp": "needs the network (a TCP server and client on localhost)",
    "asyncio_tcp_ssl": "needs the network (a TCP server and client on localhost)",
    "python_startup": "times child processes' start-up (pyperf bench_command), not code in "
                      "the worker; bench's whole-program table measures start-up",
    "python_startup_no_site": "times `python -S` child processes, which skip the autostart .pth",
    "2to3": "times a `python -m lib2to3` child process (pyperf bench_command), which the hook "
            "in the worker cannot check",
}

Benchmark = namedtuple("Benchmark", "name script args")


def locate():
    """(benchmarks directory, pyperformance version) or (None, why not)."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None, "pyperformance is not installed (%s)" % INSTALL_HINT
    root = os.path.join(list(spec.submodule_search_locations)[0], "data-files", "benchmarks")
    if not os.path.isdir(root):
        return None, "%s has no benchmark scripts" % root
    try:
        version = importlib.metadata.version(PACKAGE)
    except importlib.metadata.PackageNotFoundError:
        version = "?"
    return (root, version), None


def _satisfied(requires_python):
    if not requires_python:
        return True
    from packaging.specifiers import SpecifierSet  # a dependency of pyperformance

    return "%d.%d.%d" % sys.version_info[:3] in SpecifierSet(requires_python)


def discover(root):
    """Every benchmark of `root` that needs nothing but pyperf, in pyperformance's name order."""
    found = []
    for directory in sorted(glob.glob(os.path.join(root, "bm_*"))):
        script = os.path.join(directory, "run_benchmark.py")
        base_path = os.path.join(directory, "pyproject.toml")
        if not os.path.exists(script) or not os.path.exists(base_path):
            continue
        if os.path.exists(os.path.join(directory, "requirements.txt")):
            continue
        with open(base_path, "rb") as f:
            base = tomllib.load(f)
        for meta_path in [base_path] + sorted(glob.glob(os.path.join(directory, "bm_*.toml"))):
            with open(meta_path, "rb") as f:
                meta = tomllib.load(f)
            project = dict(base.get("project", {}), **meta.get("project", {}))
            tool = dict(base.get("tool", {}).get("pyperformance", {}),
                        **meta.get("tool", {}).get("pyperformance", {}))
            if set(project.get("dependencies") or ()) - {"pyperf"}:
                continue
            if not _satisfied(project.get("requires-python")):
                continue
            name = tool.get("name") or os.path.basename(directory)[3:]
            if name in EXCLUDED:
                continue
            found.append(Benchmark(name, script, tuple(tool.get("extra_opts") or ())))
    return sorted(found, key=lambda b: b.name)


def hook_installed():
    return any(e.name == "pyadapt" for e in importlib.metadata.entry_points(group="pyperf.hook"))


def command(bench, mode, python, out, pyperf_opts):
    """The pyperf invocation of `bench` in `mode`, writing its runs to `out` (a fresh file)."""
    if mode == "native":
        cmd = [python, bench.script]
    else:
        cmd = [python, "-m", "pyadapt"] + (["--generic"] if mode == "generic" else [])
        cmd += [bench.script]
    cmd += list(bench.args) + ["--quiet", "-o", out] + list(pyperf_opts)
    if mode != "native":
        cmd += ["--hook", "pyadapt", "--inherit-environ", INHERIT]
    return cmd


def check(suite, mode):
    """Why the runs of `suite` (one invocation) were not run as `mode`, or None if they were.

    Native runs must carry no pyadapt hook; pyadapt runs must all have been made by a worker
    with pyadapt enabled, in the mode's configuration, whose timed calls ran in pyadapt's loop
    (frames counted) and specialized (adaptive: hits) or did not (generic: no hits)."""
    for bench in suite.get_benchmarks():
        for i, run in enumerate(bench.get_runs()):
            meta = run.get_metadata()
            where = "%s, run %d" % (bench.get_name(), i + 1)
            hooked = "pyadapt" in meta.get("hooks", "").split(", ")
            if mode == "native":
                if hooked or meta.get("pyadapt_enabled"):
                    return "%s: a native run has pyadapt's hook" % where
                continue
            if not hooked or "pyadapt_enabled" not in meta:
                return "%s: no record of pyadapt (the hook did not run)" % where
            if not meta["pyadapt_enabled"]:
                return "%s: the worker ran natively, not under pyadapt" % where
            if meta["pyadapt_specialize"] != (mode == "adaptive"):
                return "%s: pyadapt ran with specialize=%s in %s mode" % (
                    where, meta["pyadapt_specialize"], mode)
            if meta["pyadapt_timed_calls"] and meta["pyadapt_timed_frames"] <= 0:
                return "%s: the timed calls did not run in pyadapt's loop" % where
            if mode == "adaptive" and meta["pyadapt_timed_calls"] and meta["pyadapt_timed_hits"] <= 0:
                return "%s: nothing ran specialized in adaptive mode" % where
            if mode == "generic" and (meta["pyadapt_timed_hits"] or meta["pyadapt_timed_specialized"]):
                return "%s: instructions specialized in generic mode" % where
    return None


def merge(path, suite):
    """Add the runs of `suite` to the pyperf file `path` (created if missing)."""
    import pyperf

    if os.path.exists(path):
        dest = pyperf.BenchmarkSuite.load(path)
        for bench in suite.get_benchmarks():
            dest.add_runs(bench)
    else:
        dest = suite
    dest.dump(path, replace=True)


def single_loops(suite):
    """The calibrated loop count to reuse in later rounds, when the script timed one benchmark
    (a script of several gets one --loops for all of them, so it calibrates every round)."""
    benches = suite.get_benchmarks()
    if len(benches) != 1:
        return None
    for run in benches[0].get_runs():
        loops = run.get_metadata().get("loops")
        if loops:
            return loops
    return None
