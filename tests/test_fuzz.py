"""The differential fuzzer (tools/fuzz.py): its generator, and a fixed-seed run for CI.

The CI runs compare a few hundred generated programs (plain, and with --descriptors) natively
and under pyadapt (adaptive with warmups 0, 2 and 50, and generic), and a hundred with --signals
(SIGALRM with a raising handler while fresh code objects are entered and specialized).  A failure names the case and the file the fuzzer wrote
(a standalone program in the format of tests/regressions/): turn it into a regression case.
"""

import os
import re
import subprocess
import sys
import tempfile
import time
import warnings

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tools"))

import fuzz  # noqa: E402

CI_SEED = 20240601
CI_COUNT = 300
CI_SIGNAL_COUNT = 100   # each program runs 5 times more with --signals


def test_generator_is_deterministic():
    assert fuzz.generate(5, 3) == fuzz.generate(5, 3)
    assert fuzz.generate(5, 3) != fuzz.generate(5, 4)
    assert fuzz.generate(5, 3, patch_builtins=True) == fuzz.generate(5, 3, patch_builtins=True)


def test_descriptor_generator_is_opt_in_and_deterministic():
    # off, the programs of every existing seed stay what they were
    assert fuzz.generate(5, 3) == fuzz.generate(5, 3, descriptors=False)
    src = fuzz.generate(5, 3, descriptors=True)
    assert src == fuzz.generate(5, 3, descriptors=True) and "DP = {" in src


@pytest.mark.parametrize("patch_builtins,descriptors", [(False, False), (True, False),
                                                        (False, True)])
def test_generated_programs_compile_and_terminate(patch_builtins, descriptors):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        for i in range(30):
            src = fuzz.generate(7, i, patch_builtins, descriptors)
            compile(src, f"<fuzz 7:{i}>", "exec")
            t0 = time.perf_counter()
            first = fuzz.execute(src, "native")
            assert time.perf_counter() - t0 < 5, f"program 7:{i} is too slow"
            assert fuzz.execute(src, "native") == first, f"program 7:{i} is not deterministic"


def test_standalone_file_runs(tmp_path):
    src = fuzz.generate(7, 0)
    path = tmp_path / "prog.py"
    path.write_text(fuzz.standalone(src, ["test"], ["w0"]))
    p = subprocess.run([sys.executable, "-W", "ignore", str(path)], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert p.stdout.count("return ") == fuzz.CALLS


def test_standalone_signals_file_runs(tmp_path):
    src = fuzz.generate(7, 0)
    path = tmp_path / "prog.py"
    path.write_text(fuzz.standalone(src, ["test"], ["w0"], signals_key="7:0"))
    p = subprocess.run([sys.executable, "-W", "ignore", str(path)], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert "signal rounds: every exception reached the program" in p.stdout, p.stdout
    assert p.stdout.count("return ") == fuzz.CALLS


def test_signal_harness_counts_what_it_raises():
    """Natively, what the --signals runs check under pyadapt holds."""
    st, code = fuzz.execute_signals(fuzz.generate(7, 1), "native", "7:1")
    assert fuzz.signal_problems(st) == [] and code is not None
    assert st["raised"] > 0 and st["loop_lost"] == 0


@pytest.mark.parametrize("flags,count", [([], CI_COUNT), (["--descriptors"], CI_COUNT),
                                         (["--signals"], CI_SIGNAL_COUNT)],
                         ids=["plain", "descriptors", "signals"])
def test_fuzz_fixed_seed(flags, count):
    """CI_COUNT programs (CI_SIGNAL_COUNT with --signals), two worker processes, under a minute
    (each)."""
    # reproducers go to a directory of their own that is kept, so a failure leaves them to read
    # (not pytest's tmp_path: a concurrent pytest run may prune it while the fuzzer writes)
    out = tempfile.mkdtemp(prefix="pyadapt-fuzz-ci-")
    cmd = [sys.executable, os.path.join(ROOT, "tools", "fuzz.py"), "--seed", str(CI_SEED),
           "--count", str(count), "-j", "2", "--out", out] + flags
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=ROOT)
    summary = p.stdout.strip().splitlines()
    assert summary and summary[0].startswith("fuzz:"), p.stdout + p.stderr
    assert f"{count} programs" in summary[0], p.stdout
    if "--signals" in flags:
        # the signals really landed in the program's code under pyadapt, and raised there
        m = re.search(r"^signals pyadapt: .* loop edges (\d+) raised, \d+ replaced by the program's own handlers, (\d+) lost; .* (\d+) in the "
                      r"program's frames, (\d+) in pyadapt's$", p.stdout, re.M)
        assert m, p.stdout
        raised, lost, in_program, in_pyadapt = map(int, m.groups())
        assert raised > 100 and lost == 0 and in_program > 100 and in_pyadapt == 0, p.stdout
    assert p.returncode == 0, (
        f"pyadapt differs from native on generated programs (each file in {out} is a standalone "
        "reproducer; reduce it with tools/fuzz.py --reduce and add it to tests/regressions/):\n"
        + p.stdout + p.stderr[-3000:])
    os.rmdir(out)  # empty when nothing differed
