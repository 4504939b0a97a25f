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
    assert any(m.get("pyadapt_instructions", 0) > 0 and m.get("pyadapt_hits", 0) > 0 for m in meta)
    assert all(m["bench_mode"] == "adaptive" for m in meta)

    from bench import report

    text, md = report.render(str(tmp_path))
    assert "point_shifted" in text and "| point_shifted" in md
