"""PYADAPT=1 starts any Python process of the environment under pyadapt (pyadapt-autostart.pth).

These tests need the package installed into this interpreter (``pip install -e '.[test]'``,
as README.md says): site.py reads the .pth only from site-packages.  Each test checks that
first and fails, saying so, when it is not there.
"""
import pytest

from processes import (
    MARKER,
    PYADAPT_STATE,
    REPO,
    assert_ran_under_pyadapt,
    child_env,
    describe,
    installed_pth,
    report,
    reports,
    run_python,
    write,
)


@pytest.fixture(autouse=True)
def pth_installed():
    return installed_pth()


# What a child sees: whether pyadapt was imported before its own code ran, and pyadapt's state.
CHILD = PYADAPT_STATE + f'''
import json, sys
imported_at_start = "pyadapt" in sys.modules
print({MARKER!r} + json.dumps({{"imported_at_start": imported_at_start, "pyadapt": pyadapt_state()}}))
'''


def test_pth_is_one_import_line(pth_installed):
    with open(pth_installed) as f:
        lines = f.read().splitlines()
    assert len(lines) == 1 and lines[0].startswith("import "), lines


@pytest.mark.parametrize("value", [None, "0", ""])
def test_without_pyadapt_nothing_is_imported(tmp_path, value):
    proc = run_python(["-c", CHILD], tmp_path, env=child_env(PYADAPT=value))
    child = report(proc)
    assert not child["imported_at_start"], "pyadapt was imported although PYADAPT is unset or 0"
    assert child["pyadapt"] is None
    assert proc.stderr == ""


def test_pyadapt_1_starts_the_process_under_pyadapt(tmp_path):
    proc = run_python(["-c", CHILD], tmp_path, env=child_env(PYADAPT="1"))
    child = report(proc)
    assert child["imported_at_start"], "PYADAPT=1 did not import pyadapt at start-up"
    assert_ran_under_pyadapt(child["pyadapt"])
    assert proc.stderr == ""


def test_pyadapt_1_runs_a_script_under_pyadapt(tmp_path):
    write(tmp_path / "script.py", CHILD)
    child = report(run_python(["script.py"], tmp_path, env=child_env(PYADAPT="1")))
    assert child["imported_at_start"]
    assert_ran_under_pyadapt(child["pyadapt"])


def test_unknown_value_warns_once_and_runs_natively(tmp_path):
    proc = run_python(["-c", CHILD], tmp_path, env=child_env(PYADAPT="yes"))
    child = report(proc)
    assert child["pyadapt"] is None or not child["pyadapt"]["enabled"]
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("pyadapt: autostart failed"), proc.stderr
    assert "PYADAPT='yes'" in lines[0]


MULTIPROCESSING_PROGRAM = PYADAPT_STATE + f'''
import json, multiprocessing

def worker(_):
    return pyadapt_state()

if __name__ == "__main__":
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(2) as pool:
        states = pool.map(worker, range(4))
    print({MARKER!r} + json.dumps(states))
'''


def test_multiprocessing_spawn_worker_runs_under_pyadapt(tmp_path):
    write(tmp_path / "mp_program.py", MULTIPROCESSING_PROGRAM)
    proc = run_python(["mp_program.py"], tmp_path, env=child_env(PYADAPT="1"))
    assert proc.returncode == 0, describe(proc)
    (states,) = reports(proc)
    assert len(states) == 4
    for state in states:
        assert_ran_under_pyadapt(state)


def test_failing_import_warns_once_and_runs_natively(tmp_path):
    # A pyadapt earlier on sys.path that cannot be imported (as a broken build would).
    write(tmp_path / "shadow" / "pyadapt" / "__init__.py", "raise ImportError('broken build')\n")
    env = child_env(PYADAPT="1", PYTHONPATH=str(tmp_path / "shadow"))
    proc = run_python(["-c", "print('still running')"], tmp_path, env=env)
    assert proc.returncode == 0, describe(proc)
    assert proc.stdout == "still running\n"
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("pyadapt: ") and "ImportError: broken build" in lines[0]
    assert lines[0].endswith("running natively")


def test_failing_enable_warns_once_and_runs_natively(tmp_path):
    # A pyadapt whose enable() fails half way, with the real _autostart module.
    shadow = tmp_path / "shadow" / "pyadapt"
    write(shadow / "__init__.py", '''
        enabled = False
        disabled = False

        def is_enabled():
            return enabled

        def configure(**settings):
            pass

        def enable():
            global enabled
            enabled = True
            raise RuntimeError("cannot install the hook")

        def disable():
            global enabled, disabled
            enabled, disabled = False, True
        ''')
    with open(f"{REPO}/pyadapt/_autostart.py") as f:
        write(shadow / "_autostart.py", f.read())
    env = child_env(PYADAPT="1", PYTHONPATH=str(tmp_path / "shadow"))
    code = "import pyadapt; print(pyadapt.__file__, pyadapt.is_enabled(), pyadapt.disabled)"
    proc = run_python(["-c", code], tmp_path, env=env)
    assert proc.returncode == 0, describe(proc)
    assert proc.stdout == f"{shadow / '__init__.py'} False True\n"
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0] == ("pyadapt: autostart failed (RuntimeError: cannot install the hook); "
                        "running natively")
