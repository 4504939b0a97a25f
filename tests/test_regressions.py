"""Regression cases: standalone programs that once behaved differently under pyadapt.

Each file in ``tests/regressions/`` is a complete Python program (one bug per file, found by
``tools/regrtest.py`` or ``tools/fuzz.py``).  It runs in a subprocess natively
(``python3 FILE``) and under pyadapt (``python3 -m pyadapt FILE``) in each mode its header asks
for; stdout, stderr (memory addresses masked) and the exit status must be the same.  The
native run is also checked against the behaviour the file records, so a file that stops
showing what it was written for is noticed.

Header lines (comments at the top of the file):

``# MODES: adaptive generic w0 w50``
    pyadapt modes to compare: ``adaptive`` (default warmup), ``generic``
    (``PYADAPT_SPECIALIZE=0``), ``wN`` (adaptive with ``PYADAPT_WARMUP=N``).
    Default: ``adaptive generic``.
``# EXPECTED-EXIT: N``
    the native exit status (default 0).
``# EXPECTED-STDOUT:`` followed by ``#| line`` lines
    the native standard output, line by line (optional).
``# TIMEOUT: seconds``
    per run (default 60): a hang is a failure, not a stuck CI.
``# XFAIL: reason``
    mark the case as a known, accepted difference (strict: it fails once it passes).
``# MODES-3.X: modes``
    the modes to compare on CPython 3.X, where they differ from ``MODES`` (the file says why).
``# NATIVE-BUG: 3.X.A-3.X.B reason``
    CPython 3.X.A to 3.X.B (inclusive) get the program wrong natively (hang, exhaust memory):
    there the native run is not made, and pyadapt's run is compared with what the file
    records (EXPECTED-EXIT, and EXPECTED-STDOUT or this version's block), which is what the
    versions without the bug do.

A crash (negative exit status: a signal) is reported with the signal's name.
"""

import json
import os
import re
import signal
import subprocess
import sys
import tempfile

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REGRESSIONS = os.path.join(HERE, "regressions")
ROOT = os.path.dirname(HERE)

_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")

MODE_ENV = {
    "adaptive": {},
    "generic": {"PYADAPT_SPECIALIZE": "0"},
}


def mode_env(mode):
    if mode in MODE_ENV:
        return MODE_ENV[mode]
    m = re.fullmatch(r"w(\d+)", mode)
    if m:
        return {"PYADAPT_WARMUP": m.group(1)}
    raise ValueError(f"unknown mode {mode!r}")


def native_bug(value, version=None):
    """The reason of a NATIVE-BUG line ("3.13.0-3.13.7 cpython gh-132744") if the running
    CPython (or ``version``) is in its range, else None."""
    versions, _, reason = value.partition(" ")
    lo, _, hi = versions.partition("-")
    lo, hi = (tuple(map(int, v.split("."))) for v in (lo, hi or lo))
    if lo <= tuple(version or sys.version_info[:3]) <= hi:
        return f"CPython {versions}: {reason.strip()}"
    return None


def parse_header(path):
    info = {"modes": ["adaptive", "generic"], "exit": 0, "stdout": None, "timeout": 60.0, "xfail": None,
            "native_bug": None}
    version_modes = None
    stdout_lines = None
    # EXPECTED-STDOUT-3.X: native output on that version where it differs from the
    # EXPECTED-STDOUT block, which is 3.11's (3.12's recursion messages, for one)
    this_version = "%d.%d" % sys.version_info[:2]
    version_lines = base_lines = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.startswith("#"):
                if line.strip():
                    break
                continue
            if line.startswith("#|"):
                if stdout_lines is not None:
                    stdout_lines.append(line[3:] if line.startswith("#| ") else line[2:])
                continue
            body = line[1:].strip()
            key, sep, value = body.partition(":")
            if not sep:
                continue
            key, value = key.strip().upper(), value.strip()
            if key == "MODES":
                info["modes"] = value.split()
            elif key.startswith("MODES-"):
                if key[len("MODES-"):] == this_version:
                    version_modes = value.split()
            elif key == "NATIVE-BUG":
                info["native_bug"] = native_bug(value)
            elif key == "EXPECTED-EXIT":
                info["exit"] = int(value)
            elif key == "EXPECTED-STDOUT":
                stdout_lines = base_lines = []
            elif key.startswith("EXPECTED-STDOUT-"):
                stdout_lines = []
                if key[len("EXPECTED-STDOUT-"):] == this_version:
                    version_lines = stdout_lines
            elif key == "TIMEOUT":
                info["timeout"] = float(value)
            elif key == "XFAIL":
                info["xfail"] = value
    if version_modes is not None:
        info["modes"] = version_modes
    stdout_lines = version_lines if version_lines is not None else base_lines
    if stdout_lines is not None:
        info["stdout"] = "".join(l + "\n" for l in stdout_lines)
    return info


def run_program(path, mode, timeout, stats_path=None):
    """Run FILE natively (mode None) or under pyadapt; return (returncode, stdout, stderr).
    Under pyadapt with `stats_path`, pyadapt's statistics are written there at exit."""
    env = dict(os.environ)
    for k in ("PYADAPT", "PYADAPT_SPECIALIZE", "PYADAPT_WARMUP"):
        env.pop(k, None)
    env["PYTHONHASHSEED"] = "0"
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    # generated programs may compare a literal with `is` (a SyntaxWarning at compile time)
    if mode is None:
        cmd = [sys.executable, "-W", "ignore::SyntaxWarning", path]
    else:
        env.update(mode_env(mode))
        cmd = [sys.executable, "-W", "ignore::SyntaxWarning", "-m", "pyadapt",
               *(["--stats-json", stats_path] if stats_path else []), path]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env,
                           cwd=os.path.dirname(path), stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode("utf-8", "replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        return "timeout", out, ""
    return p.returncode, p.stdout, p.stderr


def describe_status(rc):
    if rc == "timeout":
        return "hung (timed out)"
    if isinstance(rc, int) and rc < 0:
        try:
            return f"killed by {signal.Signals(-rc).name}"
        except ValueError:
            return f"killed by signal {-rc}"
    return f"exit {rc}"


def normalize(text):
    return _ADDRESS.sub("0x?", text)


def _cases():
    if not os.path.isdir(REGRESSIONS):
        return []
    out = []
    for name in sorted(os.listdir(REGRESSIONS)):
        if not name.endswith(".py") or name.startswith("_"):
            continue
        path = os.path.join(REGRESSIONS, name)
        info = parse_header(path)
        for mode in info["modes"]:
            marks = [pytest.mark.xfail(reason=info["xfail"], strict=True)] if info["xfail"] else []
            out.append(pytest.param(path, mode, id=f"{name[:-3]}-{mode}", marks=marks))
    return out


_native_cache = {}


def native_result(path, timeout):
    if path not in _native_cache:
        _native_cache[path] = run_program(path, None, timeout)
    return _native_cache[path]


@pytest.mark.parametrize("path,mode", _cases())
def test_regression(path, mode):
    info = parse_header(path)
    if info["native_bug"]:
        # not run natively here: the file records what the versions without the bug do
        assert info["stdout"] is not None, "a NATIVE-BUG program records its expected output"
        nrc, nout, nerr = info["exit"], info["stdout"], ""
    else:
        nrc, nout, nerr = native_result(path, info["timeout"])
    assert nrc == info["exit"], f"native run: {describe_status(nrc)}, file says exit {info['exit']}\n{nerr}"
    if info["stdout"] is not None:
        assert normalize(nout) == normalize(info["stdout"]), "native output is not what the file records"
    with tempfile.TemporaryDirectory() as tmp:
        stats_path = os.path.join(tmp, "stats.json")
        rc, out, err = run_program(path, mode, info["timeout"], stats_path)
        stats = None
        if os.path.exists(stats_path):
            with open(stats_path) as f:
                stats = json.load(f)
    problems = []
    # proof that pyadapt ran the program (a silent native run would match too): its loop
    # evaluated frames.  Programs that end without atexit (a signal, os._exit) write nothing.
    if stats is not None:
        if stats["frames"] == 0:
            problems.append("pyadapt's loop evaluated no frame: the program ran natively")
    elif rc == 0:
        problems.append("no statistics written at exit under pyadapt")
    if rc != nrc:
        problems.append(f"status: native {describe_status(nrc)}, pyadapt {describe_status(rc)}")
    if normalize(out) != normalize(nout):
        problems.append(f"stdout differs:\n--- native\n{nout}--- pyadapt ({mode})\n{out}")
    if normalize(err) != normalize(nerr):
        problems.append(f"stderr differs:\n--- native\n{nerr[-3000:]}--- pyadapt ({mode})\n{err[-3000:]}")
    assert not problems, f"{os.path.basename(path)} [{mode}]\n" + "\n".join(problems)


def test_header_keys_by_version(tmp_path):
    this = "%d.%d" % sys.version_info[:2]
    other = "3.10" if this != "3.10" else "3.9"
    program = tmp_path / "p.py"
    program.write_text(f"# MODES: adaptive generic\n# MODES-{this}: w0\n# MODES-{other}: w50\n"
                       "# NATIVE-BUG: 3.0.0-3.0.9 some bug\n# EXPECTED-STDOUT:\n#| x\nprint('x')\n")
    info = parse_header(str(program))
    assert info["modes"] == ["w0"] and info["native_bug"] is None and info["stdout"] == "x\n"
    assert native_bug("3.13.0-3.13.7 cpython gh-132744", (3, 13, 0)) == \
        "CPython 3.13.0-3.13.7: cpython gh-132744"
    assert native_bug("3.13.0-3.13.7 cpython gh-132744", (3, 13, 7))
    assert native_bug("3.13.0-3.13.7 cpython gh-132744", (3, 13, 8)) is None
    assert native_bug("3.13.0-3.13.7 cpython gh-132744", (3, 12, 9)) is None


# --------------------------------------------------------------------------------------------
# CPython's own regression tests (tools/regrtest.py): the CI subset, adaptive and generic


def test_cpython_regrtest_fast_subset():
    """Every module of the CI subset runs under pyadapt exactly as natively (same tests run,
    same outcomes), in adaptive and in generic mode; about a minute with two modules at a time."""
    # not pytest's tmp_path: a concurrent pytest run may prune it while this one is writing
    with tempfile.TemporaryDirectory(prefix="pyadapt-regrtest-") as outdir:
        cmd = [sys.executable, os.path.join(ROOT, "tools", "regrtest.py"), "--fast", "--mode", "both",
               "-j", "2", "--timeout", "300", "--outdir", outdir]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=900, cwd=ROOT)
    assert "| module" in p.stdout, p.stdout + p.stderr[-3000:]
    assert p.returncode == 0, "CPython's tests behave differently under pyadapt:\n" + p.stdout


def _regrtest_module():
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    try:
        import regrtest
    finally:
        sys.path.pop(0)
    return regrtest


def test_regrtest_by_design_differences_are_the_listed_ones_only():
    rt = _regrtest_module()
    ok = "test.test_dis.DisTests.test_code_info"
    design = "test.test_dis.DisTests.test_loop_quicken"
    native = rt.RunResult("test_dis", "native", returncode=0, cases={ok: rt.OK, design: rt.OK})
    same = rt.RunResult("test_dis", "generic", returncode=2, cases={ok: rt.OK, design: rt.FAIL})
    other = rt.RunResult("test_dis", "generic", returncode=2, cases={ok: rt.FAIL, design: rt.FAIL})
    assert design in rt.BY_DESIGN and ok not in rt.BY_DESIGN
    assert rt.same_as_native(native, same)            # only the by-design test differs
    assert not rt.same_as_native(native, other)       # another test differs too
    clean = rt.RunResult("test_dis", "generic", returncode=2, cases={ok: rt.OK, design: rt.OK})
    assert not rt.same_as_native(native, clean)       # nothing differs, yet the run failed
    # a difference by design in one mode only
    gen_only = "test.test_support.TestSupport.test_recursion"
    assert rt.BY_DESIGN[gen_only][0] == ("generic",)
    native = rt.RunResult("test_support", "native", returncode=0, cases={gen_only: rt.OK})
    for mode, same in (("generic", True), ("adaptive", False)):
        r = rt.RunResult("test_support", mode, returncode=2, cases={gen_only: rt.ERROR})
        assert rt.same_as_native(native, r) == same, mode


def test_regrtest_failed_subtest_counts_as_a_failure():
    # unittest names a failed subtest "[key=value]" (parameters) or "(message)"; the junit xml
    # of such a case has no name, so the text block is what reports it
    rt = _regrtest_module()
    out = ("FAIL: test_show_caches (test.test_dis.DisTests.test_show_caches) "
           "[quickened=True, adaptive=True]\n"
           "ERROR: test_x (test.test_m.C.test_x) (msg='a (b)')\n")
    cases, _ = rt.parse_results(out, None)
    assert cases == {"test.test_dis.DisTests.test_show_caches": rt.FAIL,
                     "test.test_m.C.test_x": rt.ERROR}
