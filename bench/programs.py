"""Whole programs: wall time and peak memory of a process, natively and under python -m pyadapt.

    python -m bench.programs                     # 20 interleaved rounds (about a minute)
    python -m bench.programs --rounds 5          # a rough answer
    python -m bench.programs --programs c_pass --json out.json
    python -m bench.programs --variant compile0=--compile-after=0   # a third mode

``python -m bench`` runs it too (20 rounds, 5 with --fast; --no-programs skips it) and puts
the table after the others, from ``programs.json`` in the run's directory.

Each program is a whole command line, started as ``python ARGS`` (native) and as ``python -m
pyadapt ARGS`` (adaptive, default warmup) from the same interpreter, alternately: every
round runs every (program, mode) pair once, so a change in the load of a shared machine
reaches all of them alike.  For each pair the table gives the median wall time with its
interquartile range, the median CPU time (user + system, less sensitive to other load than
wall time), the median peak RSS (the child's ``ru_maxrss``), and the ratio of the medians
(pyadapt / native: above 1.00 is slower, unlike bench's speed tables, because these are costs).
``--variant NAME=OPTIONS`` adds a mode ``python -m pyadapt OPTIONS ARGS`` (options of
pyadapt's, comma-separated), measured in the same rounds: the way to compare settings.

``pytest_pyflakes`` and ``pytest_toolz`` are real test suites of third-party libraries that
ship their tests in their wheels (``pytest --pyargs pyflakes``: 759 tests; ``toolz``: 192),
pure Python, at the versions the ``bench`` and ``test`` extras pin; when the interpreter
cannot import them (or pytest) they are left out with a note.

``import_pyadapt`` is measured inside one process (``time.perf_counter`` around ``import
pyadapt``): it is the cost a program pays when it imports pyadapt itself; its "native" row
times the same statement importing ``sys`` (already imported: the timer's own cost), and its
last column is the difference only.  The programs' stdout is discarded; a program
that fails fails the run.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

STDLIB_IMPORTS = """\
import asyncio, email.parser, json, http.client, argparse, unittest, decimal, logging
import collections, dataclasses, typing, pathlib, re, csv, xml.etree.ElementTree, urllib.request
"""

# name -> (what it is, the program's command line after python / python -m pyadapt)
PROGRAMS = {
    "c_pass": ("-c pass", ["-c", "pass"]),
    "empty_script": ("an empty script", ["{dir}/empty.py"]),
    "stdlib_imports": ("a script importing 16 stdlib packages (asyncio, email.parser, json, "
                       "http.client, argparse, unittest, decimal, logging, ...)",
                       ["{dir}/stdlib_imports.py"]),
    "pytest_pyflakes": ("pytest running pyflakes' own tests (pyflakes 4.1.0)",
                        ["-m", "pytest", "-q", "-p", "no:cacheprovider", "--pyargs", "pyflakes"]),
    "pytest_toolz": ("pytest running toolz's own tests (toolz 1.2.0)",
                     ["-m", "pytest", "-q", "-p", "no:cacheprovider", "--pyargs", "toolz"]),
    "import_pyadapt": ("import pyadapt, in-process time (native row: the timer alone)", None),
}
# what a program needs importable, beyond the standard library
REQUIRES = {"pytest_pyflakes": ("pytest", "pyflakes.test"), "pytest_toolz": ("pytest", "toolz.tests")}

IMPORT_TIMER = ("import time; t = time.perf_counter(); import {module}; "
                "print((time.perf_counter() - t) * 1e3)")


def _env(workdir=None):
    """The children's environment.  With `workdir`, bytecode caching is on and its files go
    under workdir (PYTHONPYCACHEPREFIX): with PYTHONDONTWRITEBYTECODE set (as on a machine
    whose sessions set it), an editable install of pyadapt has no .pyc files, and every
    ``python -m pyadapt`` compiled pyadapt's own modules from source, about 15 ms of CPU
    and 3 MiB of peak RSS that an installed wheel (its .pyc files written at install) does
    not pay.  The unmeasured first run of each command writes the caches, natively too."""
    env = dict(os.environ)
    for var in ("PYADAPT", "PYADAPT_SPECIALIZE", "PYADAPT_WARMUP", "PYADAPT_COMPILE_AFTER"):
        env.pop(var, None)
    if workdir is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = os.path.join(workdir, "pycache")
    return env


def _measure(cmd, env, cwd):
    """(wall ms, cpu ms, peak RSS KiB, stdout) of one run of cmd, via fork/exec and wait4."""
    read_fd, write_fd = os.pipe()
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:   # the child: stdout to the pipe, stderr discarded, then the program
        try:
            os.close(read_fd)
            os.dup2(write_fd, 1)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 2)
            os.chdir(cwd)
            os.execve(cmd[0], cmd, env)
        finally:
            os._exit(127)
    os.close(write_fd)
    chunks = []
    while True:
        chunk = os.read(read_fd, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(read_fd)
    _, status, usage = os.wait4(pid, 0)
    wall = (time.perf_counter() - t0) * 1e3
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise RuntimeError("%s failed (exit %d); run it by hand to see why" % (" ".join(cmd), code))
    cpu = (usage.ru_utime + usage.ru_stime) * 1e3
    return wall, cpu, usage.ru_maxrss, b"".join(chunks).decode()


def _commands(name, python, workdir, modes):
    """{mode: command line} of one program; modes: {mode: pyadapt options or None (native)}."""
    what, args = PROGRAMS[name]
    if args is None:   # in-process import time
        return {mode: [python, "-c", IMPORT_TIMER.format(
                    module="sys" if opts is None else "pyadapt")]
                for mode, opts in modes.items() if mode in ("native", "pyadapt")}
    args = [a.replace("{dir}", workdir) for a in args]
    return {mode: [python, *args] if opts is None else [python, "-m", "pyadapt", *opts, *args]
            for mode, opts in modes.items()}


def _write_programs(workdir):
    with open(os.path.join(workdir, "empty.py"), "w") as f:
        f.write("")
    with open(os.path.join(workdir, "stdlib_imports.py"), "w") as f:
        f.write(STDLIB_IMPORTS)


def available(names, python=sys.executable, log=print):
    """names without the programs whose requirements ``python`` cannot import."""
    kept = []
    for name in names:
        needs = REQUIRES.get(name, ())
        if needs:
            probe = subprocess.run([python, "-c", "import " + ", ".join(needs)],
                                   capture_output=True, env=_env())
            if probe.returncode != 0:
                if log:
                    log("  %s left out: %s cannot import %s (pip install it)"
                        % (name, python, ", ".join(needs)))
                continue
        kept.append(name)
    return kept


def parse_variants(specs):
    """{mode: options} of the --variant NAME=OPT,OPT arguments."""
    variants = {}
    for spec in specs:
        name, eq, opts = spec.partition("=")
        if not eq or not name or name in ("native", "pyadapt"):
            raise ValueError("--variant NAME=OPTIONS (NAME not native or pyadapt): %r" % spec)
        variants["pyadapt " + name] = [o for o in opts.split(",") if o]
    return variants


def run(names, rounds, python=sys.executable, log=print, variants=None):
    """{name: {mode: samples}}, samples = {"wall": [...], ...}; modes native, pyadapt and
    the variants ({mode: pyadapt options})."""
    modes = {"native": None, "pyadapt": [], **(variants or {})}
    with tempfile.TemporaryDirectory(prefix="pyadapt-programs-") as workdir:
        env = _env(workdir)
        _write_programs(workdir)
        commands = {name: _commands(name, python, workdir, modes) for name in names}
        results = {name: {mode: {"wall": [], "cpu": [], "rss": [], "inprocess": []}
                          for mode in commands[name]} for name in names}
        for name in names:   # one unmeasured run each: .pyc files written, caches warm
            for cmd in commands[name].values():
                _measure(cmd, env, workdir)
        for r in range(rounds):
            for name in names:
                for mode, cmd in commands[name].items():
                    wall, cpu, rss, out = _measure(cmd, env, workdir)
                    sample = results[name][mode]
                    sample["wall"].append(wall)
                    sample["cpu"].append(cpu)
                    sample["rss"].append(rss)
                    if PROGRAMS[name][1] is None:
                        sample["inprocess"].append(float(out.strip().splitlines()[-1]))
            if log and (r + 1) % 5 == 0:
                log("  round %d of %d" % (r + 1, rounds))
    return results


def _median(xs):
    return statistics.median(xs) if xs else float("nan")


def _iqr(xs):
    if len(xs) < 2:
        return (xs[0], xs[0]) if xs else (float("nan"),) * 2
    q = statistics.quantiles(xs, n=4, method="inclusive")
    return q[0], q[2]


def table(results, rounds):
    """The table, as (text, markdown)."""
    head = ("program", "mode", "wall ms (median, IQR)", "cpu ms", "peak RSS MiB", "pyadapt/native")
    rows = []
    for name, modes in results.items():
        key = "inprocess" if PROGRAMS[name][1] is None else "wall"
        base = _median(modes["native"][key])
        for mode, s in modes.items():
            lo, hi = _iqr(s[key])
            med = _median(s[key])
            if mode == "native":
                ratio = ""
            elif key == "inprocess":
                ratio = "%+.1f ms" % (med - base)
            else:
                ratio = "%.2fx (%+.1f ms)" % (med / base, med - base)
                if key == "wall":   # CPU time: less sensitive to the load; memory: a cost too
                    native = modes["native"]
                    ratio += ", cpu %.2fx, RSS %.2fx" % (
                        _median(s["cpu"]) / _median(native["cpu"]),
                        _median(s["rss"]) / _median(native["rss"]))
            rows.append((name if mode == "native" else "", mode,
                         "%.1f (%.1f-%.1f)" % (med, lo, hi),
                         "%.1f" % _median(s["cpu"]),
                         "%.1f" % (_median(s["rss"]) / 1024), ratio))
    widths = [max(len(str(r[i])) for r in (head, *rows)) for i in range(len(head))]
    lines = ["  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip()
             for r in (head, *rows)]
    text = "\n".join([lines[0], "-" * len(lines[0]), *lines[1:]])
    md = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    md += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    notes = ("%d interleaved rounds; import_pyadapt: in-process ms of the import (native row: "
             "the timer alone); other rows: the process's wall time" % rounds)
    return text + "\n" + notes, "\n".join(md) + "\n\n" + notes


FULL_ROUNDS, FAST_ROUNDS = 20, 5   # as part of python -m bench (and --fast)


def save(path, names, rounds, python, log=print, variants=None):
    """Run the programs and write their samples and table to ``path`` (JSON)."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    names = available(names, python, log=log)
    results = run(names, rounds, python, log=log, variants=variants)
    text, md = table(results, rounds)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        json.dump({"python": python, "rounds": rounds, "load_at_start": load,
                   "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
                   "programs": {n: PROGRAMS[n][0] for n in names},
                   "results": results, "table_text": text, "table_md": md}, f, indent=1)
        f.write("\n")
    return text, md


def table_of_file(path):
    """(text, markdown) of a saved run."""
    with open(path) as f:
        data = json.load(f)
    return table(data["results"], data["rounds"])


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m bench.programs",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=20, help="interleaved rounds (default 20)")
    ap.add_argument("--programs", default=",".join(PROGRAMS),
                    help="comma-separated subset of: " + ", ".join(PROGRAMS))
    ap.add_argument("--python", default=sys.executable, help="the interpreter (default: this one)")
    ap.add_argument("--json", default="", help="write the samples and the table to this file")
    ap.add_argument("--variant", action="append", default=[], metavar="NAME=OPTIONS",
                    help="another mode: python -m pyadapt OPTIONS (comma-separated), e.g. "
                         "compile0=--compile-after=0; repeatable")
    args = ap.parse_args(argv)
    names = [n for n in args.programs.split(",") if n]
    unknown = [n for n in names if n not in PROGRAMS]
    if unknown or args.rounds < 1:
        ap.error("unknown programs: %s" % ", ".join(unknown) if unknown else "--rounds >= 1")
    try:
        variants = parse_variants(args.variant)
    except ValueError as exc:
        ap.error(str(exc))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print("whole programs, %d rounds, %s, load %.2f at start"
          % (args.rounds, args.python, load), flush=True)
    if args.json:
        text, _ = save(args.json, names, args.rounds, args.python, variants=variants)
    else:
        names = available(names, args.python)
        text, _ = table(run(names, args.rounds, args.python, variants=variants), args.rounds)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
