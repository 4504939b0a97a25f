"""The benchmark workloads (bench/workloads) stay correct: each runs at a tiny size natively
and under pyadapt, generic and adaptive, with the same result; and the pyperf worker script
runs one workload end to end, checks pyadapt ran it, and records its counters."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import pyadapt  # noqa: E402
from bench import workloads  # noqa: E402


@pytest.fixture
def restore_config():
    saved = pyadapt.config()
    yield
    pyadapt.configure(**saved)


@pytest.mark.parametrize("name", workloads.NAMES)
def test_workload_same_result_natively_and_under_pyadapt(name, restore_config):
    mod = workloads.load(name)
    assert isinstance(mod.SIZE, int) and isinstance(mod.TINY, int) and mod.TINY < mod.SIZE
    expected = mod.run(mod.TINY)
    assert expected is not None
    assert mod.run(mod.TINY) == expected, "not deterministic"
    for specialize in (False, True):
        pyadapt.configure(specialize=specialize)
        frames = pyadapt.stats()["frames"]
        for _ in range(3):  # cold, warming up, specialized
            assert pyadapt.run(mod.run, mod.TINY) == expected
        assert pyadapt.stats()["frames"] > frames, "pyadapt's loop did not run it"


def test_worker_runs_one_workload_and_records_counters(tmp_path):
    out = tmp_path / "adaptive.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYADAPT")}
    proc = subprocess.run(
        [sys.executable, os.path.join(ROOT, "bench", "worker.py"), "--mode", "adaptive",
         "--workloads", "point_shifted", "--debug-single-value", "--quiet", "-o", str(out)],
        capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    import pyperf

    bench = pyperf.BenchmarkSuite.load(str(out)).get_benchmark("point_shifted")
    meta = [r.get_metadata() for r in bench.get_runs()]
    assert any(m.get("pyadapt_frames", 0) > 0 and m.get("pyadapt_hits", 0) > 0 for m in meta)
    assert all(m["bench_mode"] == "adaptive" for m in meta)

    from bench import report

    text, md = report.render(str(tmp_path))
    assert "point_shifted" in text and "| point_shifted" in md


# ---- the standard suite: pyperformance's scripts (bench/standard.py) ---------------------


def _pyperformance_root():
    from bench import standard

    found, why = standard.locate()
    if found is None:
        pytest.skip(why)
    if not standard.hook_installed():
        pytest.skip("pyadapt's pyperf hook is not registered: reinstall pyadapt (%s)"
                    % standard.INSTALL_HINT)
    return found[0]


def test_standard_suite_keeps_the_benchmarks_that_need_nothing_but_pyperf():
    from bench import standard

    names = {b.name for b in standard.discover(_pyperformance_root())}
    assert {"richards", "nbody", "deepcopy", "pickle_pure_python", "scimark"} <= names
    assert not names & set(standard.EXCLUDED)
    assert "chameleon" not in names  # needs Chameleon (requirements.txt)
    # requires-python >= 3.12: kept on 3.12, left out on 3.11
    assert ("async_tree_eager" in names) == (sys.version_info >= (3, 12))
    scripts = {b.name: b for b in standard.discover(_pyperformance_root())}
    assert scripts["pickle_pure_python"].args == ("--pure-python", "pickle")


def test_standard_benchmark_runs_under_pyadapt_and_a_native_worker_is_caught(tmp_path):
    """One pyperformance script, one value, natively and adaptive through bench's runner;
    then the same script whose workers do not get PYADAPT (no --inherit-environ): they run
    natively, and the check says so."""
    import pyperf

    from bench import report, run, standard

    root = _pyperformance_root()
    out = tmp_path / "run"
    status = run.main(["--workloads", "none", "--pyperformance", "unpack_sequence",
                       "--modes", "native,adaptive", "--no-costs", "--fast",
                       "--pyperf=--debug-single-value", "--out", str(out)])
    assert status == 0
    suite = pyperf.BenchmarkSuite.load(str(out / "pyperformance-adaptive.json"))
    meta = [r.get_metadata() for r in suite.get_benchmark("unpack_sequence").get_runs()]
    assert meta and all(m["pyadapt_enabled"] and m["pyadapt_specialize"] for m in meta)
    assert all(m["pyadapt_timed_frames"] > 0 and m["pyadapt_timed_hits"] > 0 for m in meta)
    text, md = report.render(str(out))
    assert "unpack_sequence" in text and "| unpack_sequence" in md and "adaptive/%d.%d" % sys.version_info[:2] in text

    bench = next(b for b in standard.discover(root) if b.name == "unpack_sequence")
    cmd = standard.command(bench, "adaptive", sys.executable, str(tmp_path / "lost.json"),
                           ["--debug-single-value"])
    cut = cmd.index("--inherit-environ")
    del cmd[cut:cut + 2]
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYADAPT")}
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lost = pyperf.BenchmarkSuite.load(str(tmp_path / "lost.json"))
    assert "ran natively" in standard.check(lost, "adaptive")


def test_steady_times_each_mode_and_proves_pyadapt_ran():
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYADAPT")}
    proc = subprocess.run(
        [sys.executable, "-m", "bench.steady", "--workloads", "fib,generators", "--rounds", "2",
         "--calls", "2", "--modes", "native,generic,adaptive", "--tiny"],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = [line.split() for line in proc.stdout.splitlines()]
    modes = {(r[0], r[1]) for r in rows if len(r) >= 7}
    assert {("fib", "native"), ("fib", "generic"), ("fib", "adaptive"),
            ("generators", "adaptive")} <= modes
    assert "round 2 of 2" in proc.stderr


def test_steady_child_fails_when_pyadapt_runs_no_frame():
    # the child's proof that pyadapt ran: a child whose pyadapt.run evaluates nothing (a
    # stand-in that calls the function natively) must fail, not report native times
    code = ("import sys, pyadapt; sys.argv[0] = 'steady'; "
            "pyadapt.run = lambda f, *a: f(*a); "
            "from bench import steady; steady.child('fib', 'adaptive', 1, False, '', True)")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYADAPT")}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=120)
    assert proc.returncode != 0
    assert "ran no frame" in proc.stderr
