#!/usr/bin/env python3
"""Run modules of CPython's own regression test suite natively and under pyadapt, and compare.

Each module runs in its own subprocess (``python3 -m test MODULE -v --junit-xml F``), once
natively and once per pyadapt mode (``python3 -m pyadapt ...``: adaptive, generic or both),
with a timeout.  The results are compared test case by test case (the ids from the junit
xml and from the verbose output), so the table says which tests differ.  A module passes
"exactly as natively" when the same tests run and the same ones fail, error or skip.

    python3 tools/regrtest.py                      # the default list, adaptive mode
    python3 tools/regrtest.py --fast               # the CI subset
    python3 tools/regrtest.py --all -j 2           # every module of the interpreter's test package
    python3 tools/regrtest.py --mode both -j 2     # adaptive and generic, two modules at once
    python3 tools/regrtest.py --modules test_grammar test_scope --warmup 0

Exit status: 0 when every module ran under pyadapt exactly as natively, 1 otherwise.
Per-module output (stdout+stderr and junit xml of every run) is kept in --outdir.

Under pyadapt the suite is started as ``python3 -m pyadapt -c CODE test ...`` where CODE runs
the ``test`` package as ``__main__`` (``runpy``, like ``-m test``) and, at exit, writes
``pyadapt.stats()`` to a file: the table shows how many frames pyadapt's loop evaluated, so
a silent fallback to the native loop cannot pass for a success.
"""

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

DEFAULT_MODULES = """
test_grammar test_exceptions test_generators test_coroutines test_asyncgen test_scope
test_class test_super test_with test_contextlib test_patma test_unpack test_unpack_ex
test_listcomps test_setcomps test_dictcomps test_genexps test_fstring test_raise
test_except_star test_exception_group test_keywordonlyarg test_positional_only_arg
test_funcattrs test_dynamic test_augassign test_opcodes test_traceback test_frame
test_sys_settrace test_inspect test_descr test_dict test_list test_set test_itertools
test_functools test_threading test_signal test_asyncio
""".split()

# The CI subset: every module of the default list but the three slow ones (test_threading,
# test_signal and test_asyncio take 15-90 s each natively), and the modules outside that list
# in which the first batch run of the whole suite found defects (issue 10: test_code and
# test_opcache crashed, test_audit, test_capi and test_dis failed; test_builtin found the
# module-code function bug); about a minute and a half with -j 2.
SLOW_MODULES = ("test_threading", "test_signal", "test_asyncio")
FOUND_DEFECTS_MODULES = ["test_code", "test_opcache", "test_audit", "test_capi", "test_dis",
                         "test_builtin"]
FAST_MODULES = [m for m in DEFAULT_MODULES if m not in SLOW_MODULES] + FOUND_DEFECTS_MODULES

# Differences by design (docs/architecture.md, "CPython's regression suite: differences by
# design"): test id -> (the pyadapt modes in which its outcome may differ from native, why).
# A module whose only differences are these is "same (N by design)"; any other difference
# still counts.
_DIS_READS_CPYTHON_QUICKENING = (
    "test_binary_specialize", "test_call_specialize", "test_load_attr_specialize",
    "test_loop_quicken", "test_super_instructions", "test_show_caches")
BY_DESIGN = {
    f"test.test_dis.{cls}.{name}": (("adaptive", "generic"),
        "reads CPython's own quickened bytecode (co_code_adaptive), which CPython's loop never "
        "made: the function ran in pyadapt's loop")
    for cls in ("DisTests", "DisWithFileTests") for name in _DIS_READS_CPYTHON_QUICKENING
}
BY_DESIGN["test.test_support.TestSupport.test_recursion"] = (("generic",),
    "needs contextlib's next(gen) to take no recursion level, which holds at CPython's quickened "
    "call sites (PRECALL_BUILTIN_FAST) but not at unquickened ones; generic mode quickens nothing")

if sys.version_info[:2] >= (3, 12):
    # CPython 3.12's and 3.13's SEND run a coroutine inline only while no PEP 523 hook is set; with one
    # (pyadapt's, or any: _testinternalcapi.set_eval_frame_record gives the same natively) it
    # calls it through C and reports the StopIteration of its return to sys.settrace as an
    # 'exception' event more (tests/test_tracing.py::test_async_for_traced_as_under_any_pep523_hook)
    for _cls in ("TraceTestCase", "SkipLineEventsTraceTestCase", "TestLinesAfterTraceStarted",
                 "TestSetLocalTrace", "TraceOpcodesTestCase"):
        BY_DESIGN[f"test.test_sys_settrace.{_cls}.test_20_async_for_loop"] = (
            ("adaptive", "generic"),
            "3.12 and 3.13 trace a coroutine awaited under a PEP 523 hook with one 'exception' "
            "event more, whoever installed the hook")

if sys.version_info[:2] >= (3, 13):
    # 3.13's test_opcache runs a function until CPython's loop specialized it, then checks
    # CPython's quickened bytecode for the form (and only then races threads against it): the
    # function ran in pyadapt's loop, which specializes its own instructions and not the code
    # object's (tests/test_guards.py and test_specialization.py cover pyadapt's forms and what
    # breaks their guards)
    _OPCACHE_RACES = (
        "binary_subscr_getitem", "binary_subscr_list_int", "for_iter_gen", "for_iter_list",
        "load_attr_class", "load_attr_getattribute_overridden", "load_attr_instance_value",
        "load_attr_method_lazy_dict", "load_attr_method_no_dict", "load_attr_method_with_values",
        "load_attr_module", "load_attr_property", "load_attr_with_hint", "load_global_module",
        "store_attr_instance_value", "store_attr_with_hint", "store_subscr_list_int",
        "unpack_sequence_list")
    _TYPE_CACHE_SPECIALIZATION = (
        "class_call_specialization_user_type", "class_load_attr_specialization_static_type",
        "class_load_attr_specialization_user_type", "property_load_attr_specialization_user_type",
        "store_attr_specialization_user_type", "to_bool_specialization_user_type")
    for _tid in (["test.test_opcache.TestCallCache.test_assign_init_code",
                  "test.test_monitoring.ExceptionMonitoringTest.test_no_unwind_for_shim_frame"]
                 + [f"test.test_type_cache.TypeCacheWithSpecializationTests.test_{n}"
                    for n in _TYPE_CACHE_SPECIALIZATION]
                 + [f"test.test_opcache.TestRacesDoNotCrash.test_{n}" for n in _OPCACHE_RACES]):
        BY_DESIGN[_tid] = (("adaptive", "generic"),
                           "checks CPython's own quickened bytecode (CALL_ALLOC_AND_ENTER_INIT, "
                           "the forms raced) of a function that ran in pyadapt's loop")

# Modules whose native baseline runs under a PEP 523 hook of CPython's own test module
# (_testinternalcapi.set_eval_frame_record), with nothing of pyadapt: what they test is how
# CPython itself behaves while any hook is set, and pyadapt's results are compared with that.
# 3.12's and 3.13's test_monitoring: with a hook set, CPython's CALL calls a Python function
# through C (it inlines only without one) and reports its return to sys.monitoring as a
# C_RETURN more (test_c_return_count: 3 events, not 2), and a generator's implicit
# StopIteration at a for loop raises no STOP_ITERATION event; test_c_return_count leaves its
# events set when it fails, so every later test's setUp fails too -- 48 tests, natively under
# the hook exactly as under pyadapt.
HOOKED_BASELINE = {"test_monitoring"} if sys.version_info[:2] >= (3, 12) else set()

MODES = ("native", "adaptive", "generic")

# What the pyadapt child runs: the test package as __main__, plus a stats dump at exit.
_CHILD_CODE = r"""
import atexit, json, os, runpy, sys
import pyadapt
def _dump(path=os.environ["PYADAPT_REGRTEST_STATS"]):
    try:
        s = pyadapt.stats()
        with open(path, "w") as f:
            json.dump({"frames": s.get("frames"), "instructions": s.get("instructions"),
                       "fallbacks": dict(s.get("fallbacks", {})),
                       "enabled": pyadapt.is_enabled()}, f)
    except BaseException as e:
        with open(path, "w") as f:
            json.dump({"error": repr(e)}, f)
atexit.register(_dump)
sys.argv[0] = "-m"
runpy.run_module("test", run_name="__main__", alter_sys=True)
"""

# The hooked native baseline (HOOKED_BASELINE): the test package under a recording PEP 523
# hook, removed at exit (the recorder asserts on frames run during finalization).
_HOOKED_CODE = r"""
import _testinternalcapi, atexit, runpy, sys
_testinternalcapi.set_eval_frame_record([])
atexit.register(_testinternalcapi.set_eval_frame_default)
sys.argv[0] = "-m"
runpy.run_module("test", run_name="__main__", alter_sys=True)
"""

# Status codes of one test case.
OK, FAIL, ERROR, SKIP, XFAIL, XPASS, CRASHED = "ok", "FAIL", "ERROR", "skip", "xfail", "XPASS", "CRASHED"

_VERBOSE_LINE = re.compile(
    r"^(?P<meth>\w+) \((?P<id>[\w.]+)\)(?: \((?P<sub>.*)\))?(?:\n[^\n]*?)? \.\.\. (?:[^\n]*\n){0,3}?"
    r"(?P<res>ok|FAIL|ERROR|skipped.*|expected failure|unexpected success)\s*$",
    re.M,
)
_STARTED_LINE = re.compile(r"^(?P<meth>\w+) \((?P<id>[\w.]+)\)(?: \(.*\))?(?: \.\.\. ?)?", re.M)
# a failed subtest's block names it with its parameters: "(msg)" or "[key=value, ...]"
_BLOCK_LINE = re.compile(r"^(?P<kind>FAIL|ERROR): (?P<meth>\w+) \((?P<id>[\w.]+)\)"
                         r"(?: (?:\((?P<sub>.*)\)|\[(?P<params>.*)\]))*\s*$", re.M)
_SUMMARY = re.compile(r"^Result: (?P<res>.*)$", re.M)


@dataclass
class RunResult:
    module: str
    mode: str
    returncode: int | None = None
    timed_out: bool = False
    duration: float = 0.0
    cases: dict = field(default_factory=dict)  # test id -> status
    summary: str = ""
    stats: dict | None = None
    last_started: str | None = None  # the test that was running when the process died
    log: str = ""

    @property
    def crashed(self):
        return self.timed_out or (self.returncode is not None and self.returncode < 0)

    def counts(self):
        c = {k: 0 for k in (OK, FAIL, ERROR, SKIP, XFAIL, XPASS)}
        for st in self.cases.values():
            c[st] = c.get(st, 0) + 1
        return c

    def short(self):
        c = self.counts()
        run = len(self.cases) - c[SKIP]
        text = f"{run}/{c[FAIL]}/{c[ERROR]}/{c[SKIP]}"
        if self.timed_out:
            text += " TIMEOUT"
        elif self.returncode is not None and self.returncode < 0:
            text += f" SIG{_signame(-self.returncode)}"
        elif self.returncode not in (0, None) and not (c[FAIL] or c[ERROR]):
            text += f" rc={self.returncode}"
        return text


def _signame(num):
    try:
        return signal.Signals(num).name.replace("SIG", "")
    except ValueError:
        return str(num)


def _status_of_xml(tc):
    for child in tc:
        if child.tag == "failure":
            return FAIL
        if child.tag == "error":
            return ERROR
        if child.tag == "skipped":
            return SKIP
        if child.tag == "output":
            return XFAIL
        if child.tag == "outcome" and "UNEXPECTED" in (child.text or ""):
            return XPASS
    return OK


def parse_results(stdout, xml_path):
    """Return ({test id: status}, last started test id or None) from a run's output and xml."""
    cases = {}
    have_xml = False
    if xml_path and os.path.exists(xml_path):
        try:
            root = ET.parse(xml_path).getroot()
            for tc in root.iter("testcase"):
                name = tc.get("name")
                if name:  # a case whose subtests failed has no name: the text output has it
                    cases[name] = _status_of_xml(tc)
            have_xml = True
        except ET.ParseError:
            pass
    # the verbose lines only when there is no xml (the process died before writing it)
    for m in () if have_xml else _VERBOSE_LINE.finditer(stdout):
        tid = m.group("id")
        res = m.group("res")
        st = {"ok": OK, "FAIL": FAIL, "ERROR": ERROR, "expected failure": XFAIL,
              "unexpected success": XPASS}.get(res, SKIP if res.startswith("skipped") else None)
        if m.group("sub") is not None:
            # a subtest line: only failures are printed, and they make the whole case fail
            if st in (FAIL, ERROR):
                cases[tid] = _worse(cases.get(tid), st)
            continue
        cases.setdefault(tid, st)
    for m in _BLOCK_LINE.finditer(stdout):
        tid = m.group("id")
        cases[tid] = _worse(cases.get(tid), FAIL if m.group("kind") == "FAIL" else ERROR)
    last = None
    for m in _STARTED_LINE.finditer(stdout):
        last = m.group("id")
    return cases, last


def _worse(a, b):
    order = [None, OK, SKIP, XFAIL, XPASS, FAIL, ERROR, CRASHED]
    return a if order.index(a) >= order.index(b) else b


def _interactive_signals():
    """In the child before exec: SIGINT handled as a terminal's python handles it.  A parent
    started in the background (`cmd &` in a non-interactive shell) ignores SIGINT, children
    inherit that, and python then installs no KeyboardInterrupt handler: tests that interrupt
    themselves (test_asyncio.test_runners' _thread.interrupt_main()) then wait forever and,
    in test_asyncio_run_without_uncancel, grow without bound natively too (12 GB in ten
    minutes, killed by the kernel's OOM killer)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run_module(module, mode, outdir, timeout, python, warmup=None, extra=(), compile_after=0):
    """Run one test module in one mode in its own subprocess."""
    tag = f"{module}.{mode}"
    xml_path = os.path.join(outdir, tag + ".xml")
    stats_path = os.path.join(outdir, tag + ".stats.json")
    log_path = os.path.join(outdir, tag + ".log")
    for p in (xml_path, stats_path):
        if os.path.exists(p):
            os.unlink(p)
    env = dict(os.environ)
    for k in ("PYADAPT", "PYADAPT_SPECIALIZE", "PYADAPT_WARMUP", "PYADAPT_COMPILE_AFTER"):
        env.pop(k, None)
    test_args = [module, "-v", "--junit-xml", xml_path, *extra]
    if mode == "native" and module in HOOKED_BASELINE:
        cmd = [python, "-c", _HOOKED_CODE, *test_args]
    elif mode == "native":
        cmd = [python, "-m", "test", *test_args]
    else:
        cmd = [python, "-m", "pyadapt", "-c", _CHILD_CODE, *test_args]
        env["PYADAPT_REGRTEST_STATS"] = stats_path
        # 0 by default: every frame in pyadapt's loop, as run() would (the suite is here to
        # exercise the loop; the whole-program default leaves each test's body, run once, to
        # CPython's loop as cold code)
        env["PYADAPT_COMPILE_AFTER"] = str(compile_after)
        if mode == "generic":
            env["PYADAPT_SPECIALIZE"] = "0"
        elif warmup is not None:
            env["PYADAPT_WARMUP"] = str(warmup)
    res = RunResult(module, mode)
    start = time.monotonic()
    with open(log_path, "w+b") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                env=env, start_new_session=True,
                                preexec_fn=_interactive_signals)
        try:
            res.returncode = proc.wait(timeout)
        except subprocess.TimeoutExpired:
            res.timed_out = True
            # SIGABRT first: regrtest enables faulthandler, which dumps every thread's stack.
            for sig, grace in ((signal.SIGABRT, 10), (signal.SIGKILL, 10)):
                try:
                    os.killpg(proc.pid, sig)
                except ProcessLookupError:
                    pass
                try:
                    res.returncode = proc.wait(grace)
                    break
                except subprocess.TimeoutExpired:
                    continue
        res.duration = time.monotonic() - start
        log.seek(0)
        res.log = log.read().decode("utf-8", "replace")
    res.cases, res.last_started = parse_results(res.log, xml_path)
    if res.crashed and res.last_started and res.cases.get(res.last_started) is None:
        res.cases[res.last_started] = CRASHED
    m = None
    for m in _SUMMARY.finditer(res.log):
        pass
    res.summary = m.group("res").strip() if m else ""
    if os.path.exists(stats_path):
        try:
            with open(stats_path) as f:
                res.stats = json.load(f)
        except (OSError, ValueError):
            res.stats = None
    return res


def compare(native, other):
    """The test ids whose outcome differs: {id: (native status, pyadapt status)}."""
    out = {}
    for tid in sorted(set(native.cases) | set(other.cases)):
        a, b = native.cases.get(tid), other.cases.get(tid)
        if a != b:
            out[tid] = (a or "absent", b or "absent")
    return out


def by_design(diffs, mode):
    """The part of compare()'s result that BY_DESIGN allows in `mode`."""
    return {tid: d for tid, d in diffs.items() if mode in BY_DESIGN.get(tid, ((), ""))[0]}


def same_as_native(native, other):
    """The same tests ran with the same outcomes, but the differences by design (whose
    failures may also change the exit status)."""
    d = compare(native, other)
    allowed = by_design(d, other.mode)
    return not other.crashed and len(allowed) == len(d) and (
        bool(allowed) or (native.returncode == 0) == (other.returncode == 0))


def _fmt_stats(r):
    if r.stats is None:
        return "no stats" if r.mode != "native" else ""
    if "error" in r.stats:
        return "stats error"
    frames = r.stats.get("frames") or 0
    fb = sum((r.stats.get("fallbacks") or {}).values())
    return f"{_human(frames)} fr/{_human(fb)} fb"


def _human(n):
    for unit, div in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if n >= div:
            return f"{n / div:.1f}{unit}"
    return str(n)


def print_table(modules, results, modes, out=sys.stdout):
    """results: {(module, mode): RunResult}."""
    heads = ["module", "native"]
    for m in modes:
        heads += [m, f"{m} diff", f"{m} frames"]
    heads.append("time n/" + "/".join(m[0] for m in modes))
    rows = []
    for mod in modules:
        nat = results.get((mod, "native"))
        if nat is None:
            continue
        row = [mod, nat.short()]
        times = [f"{nat.duration:.1f}"]
        for m in modes:
            r = results.get((mod, m))
            if r is None:
                row += ["-", "-", "-"]
                times.append("-")
                continue
            d = compare(nat, r)
            if same_as_native(nat, r):
                verdict = f"same ({len(d)} by design)" if d else "same"
            elif r.crashed:
                verdict = "CRASH" + (f" ({len(d)})" if d else "")
            else:
                verdict = f"DIFF {len(d)}" if d else f"rc {nat.returncode}->{r.returncode}"
            row += [r.short(), verdict, _fmt_stats(r)]
            times.append(f"{r.duration:.1f}")
        row.append("/".join(times))
        rows.append(row)
    widths = [max(len(str(x)) for x in col) for col in zip(heads, *rows)]
    line = lambda cells: "| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths)) + " |"
    print(line(heads), file=out)
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|", file=out)
    for row in rows:
        print(line(row), file=out)
    print("\ncounts are run/failures/errors/skipped (run excludes skipped); diff is the number of "
          "test ids whose outcome differs from native; frames: frames pyadapt's loop evaluated / "
          "frames handed to CPython's loop", file=out)


def print_details(modules, results, modes, outdir, out=sys.stdout, limit=40):
    any_diff = False
    by_design_lines = []
    for mod in modules:
        nat = results.get((mod, "native"))
        if nat is None:
            continue
        for m in modes:
            r = results.get((mod, m))
            if r is None or same_as_native(nat, r):
                if r is not None and compare(nat, r):
                    by_design_lines.append(f"  {mod} [{m}]: {len(compare(nat, r))} tests")
                continue
            if not any_diff:
                print("\nDifferences (native -> pyadapt):", file=out)
                any_diff = True
            what = []
            if r.timed_out:
                what.append("timed out")
            elif r.crashed:
                what.append(f"killed by SIG{_signame(-r.returncode)}")
            if r.crashed and r.last_started:
                what.append(f"while running {r.last_started}")
            print(f"  {mod} [{m}] {' '.join(what)} (log: {os.path.join(outdir, f'{mod}.{m}.log')})",
                  file=out)
            d = compare(nat, r)
            for i, (tid, (a, b)) in enumerate(d.items()):
                if i == limit:
                    print(f"      ... and {len(d) - limit} more", file=out)
                    break
                print(f"      {tid}: {a} -> {b}", file=out)
            if not d and not r.crashed:
                print(f"      exit status {nat.returncode} -> {r.returncode} ({nat.summary!r} -> "
                      f"{r.summary!r})", file=out)
    hooked = [mod for mod in modules if mod in HOOKED_BASELINE and (mod, "native") in results]
    if hooked:
        print("\nNative baseline under a PEP 523 hook (HOOKED_BASELINE in tools/regrtest.py): "
              + ", ".join(hooked), file=out)
    if not any_diff:
        print("\nEvery module ran under pyadapt exactly as natively"
              + (", but for the differences by design." if by_design_lines else "."), file=out)
    if by_design_lines:
        print("\nDifferences by design (BY_DESIGN in tools/regrtest.py, docs/architecture.md):",
              file=out)
        for line in by_design_lines:
            print(line, file=out)
    return any_diff


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fast", action="store_true", help="run the CI subset (%d modules)" % len(FAST_MODULES))
    ap.add_argument("--modules", nargs="+", metavar="MODULE", help="test modules to run")
    ap.add_argument("--all", action="store_true",
                    help="every module of the interpreter's own test package "
                         "(python -m test --list-tests: 464 on 3.11.7)")
    ap.add_argument("--mode", choices=("adaptive", "generic", "both"), default="adaptive",
                    help="pyadapt mode(s) to compare with native (default: adaptive)")
    ap.add_argument("--warmup", type=int, default=None, help="PYADAPT_WARMUP for adaptive mode")
    ap.add_argument("--compile-after", type=int, default=0,
                    help="PYADAPT_COMPILE_AFTER (default 0: every frame in pyadapt's loop, not "
                         "the whole-program default, which leaves cold code to CPython)")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="modules run in parallel (default 1)")
    ap.add_argument("--timeout", type=float, default=900.0,
                    help="seconds per module and mode before the run is killed (default 900)")
    ap.add_argument("--outdir", default=None,
                    help="where logs and junit xml go (default: a new temporary directory)")
    ap.add_argument("--python", default=sys.executable, help="the interpreter (default: this one)")
    ap.add_argument("--json", metavar="FILE", help="also write all results as JSON to FILE")
    ap.add_argument("extra", nargs="*", help="after --: extra arguments for python -m test (e.g. -u all)")
    ns = ap.parse_args(argv)

    if ns.all:
        listed = subprocess.run([ns.python, "-m", "test", "--list-tests"], capture_output=True,
                                text=True, check=True)
        modules = [m for m in listed.stdout.split() if m.startswith("test")]
    else:
        modules = ns.modules or (FAST_MODULES if ns.fast else DEFAULT_MODULES)
    modes = ("adaptive", "generic") if ns.mode == "both" else (ns.mode,)
    outdir = ns.outdir or tempfile.mkdtemp(prefix="pyadapt-regrtest-")
    os.makedirs(outdir, exist_ok=True)
    jobs = [(mod, mode) for mod in modules for mode in ("native", *modes)]
    results = {}
    t0 = time.monotonic()

    def one(job):
        mod, mode = job
        r = run_module(mod, mode, outdir, ns.timeout, ns.python, ns.warmup, ns.extra,
                       ns.compile_after)
        results[job] = r
        flag = "" if mode == "native" else (" " + ("same" if (mod, "native") in results and
                                                   same_as_native(results[(mod, "native")], r) else "?"))
        print(f"[{time.monotonic() - t0:6.1f}s] {mod:28} {mode:8} {r.short():22} {r.duration:6.1f}s{flag}",
              file=sys.stderr, flush=True)
        return r

    with ThreadPoolExecutor(max(1, ns.jobs)) as ex:
        list(ex.map(one, jobs))
    print(file=sys.stderr)
    print_table(modules, results, modes)
    differs = print_details(modules, results, modes, outdir)
    print(f"\nTotal time {time.monotonic() - t0:.1f}s; logs in {outdir}")
    if ns.json:
        with open(ns.json, "w") as f:
            json.dump({f"{k[0]}.{k[1]}": {"returncode": r.returncode, "timed_out": r.timed_out,
                                          "duration": r.duration, "cases": r.cases, "stats": r.stats,
                                          "summary": r.summary, "last_started": r.last_started}
                       for k, r in results.items()}, f, indent=1)
    return 1 if differs else 0


if __name__ == "__main__":
    sys.exit(main())
