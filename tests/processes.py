"""Child interpreters for the tests of ``python -m pyadapt`` and of the PYADAPT=1 autostart.

Every child is this test run's own interpreter (``sys.executable``) with PYADAPT taken out of
its environment unless a test puts it in, so the tests hold whatever the environment of the
test run says.  A child reports what it sees as one JSON line after a marker; the
``pyadapt_state`` it reports proves that pyadapt's loop really ran it (a native run that
merely looks right must fail the tests).
"""
import json
import os
import site
import subprocess
import sys
import textwrap

TIMEOUT = 120
MARKER = "PYADAPT-TEST "
PTH_NAME = "pyadapt-autostart.pth"
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Source of a function that reports whether pyadapt runs this process: None when pyadapt was
# never imported; otherwise is_enabled() and the frame count before and after a fresh call
# (only a frame evaluated by pyadapt's loop moves the count).
PYADAPT_STATE = '''
def pyadapt_state():
    import sys
    pyadapt = sys.modules.get("pyadapt")
    if pyadapt is None:
        return None

    def work(n):
        return sum(i * i for i in range(n))

    before = pyadapt.stats()["frames"]
    work(10)
    after = pyadapt.stats()["frames"]
    return {"enabled": pyadapt.is_enabled(), "frames_before": before, "frames_after": after}
'''

# A program that reports how it was started: what python itself decides for sys.argv,
# sys.path[0] and the __main__ module.  The same text serves as a script, a module for -m,
# a package's __main__.py and the code of -c.
PROBE = PYADAPT_STATE + '''
import json, os, sys

def _loader_name(loader):
    return getattr(loader, "__name__", None) or type(loader).__name__

_spec = globals().get("__spec__")
_parent = sys.modules.get(__package__) if __package__ else None
print("''' + MARKER + '''" + json.dumps({
    "argv": sys.argv,
    "path0": sys.path[0],
    "name": __name__,
    "file": globals().get("__file__"),
    "cached": globals().get("__cached__"),
    "package": __package__,
    "spec": None if _spec is None else [_spec.name, _spec.origin],
    "loader": _loader_name(__loader__),
    "builtins": type(__builtins__).__name__,
    "globals": sorted(globals()),
    "main_module_is_this": sys.modules["__main__"].__dict__ is globals(),
    "co_filename": sys._getframe().f_code.co_filename,
    "parent_argv0": getattr(_parent, "ARGV0_AT_IMPORT", None),
    "importers": {k: type(v).__name__ for k, v in sys.path_importer_cache.items()
                  if k == "" or k.startswith(os.getcwd())},
    "pyadapt": pyadapt_state(),
}))
'''


def child_env(**extra):
    """The test run's environment without PYADAPT, plus ``extra`` (a value None removes a name)."""
    env = dict(os.environ)
    env.pop("PYADAPT", None)
    for name, value in extra.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def run_python(args, cwd, env=None, stdin=None):
    """Run ``sys.executable *args``; the CompletedProcess, text mode."""
    return subprocess.run(
        [sys.executable, *args],
        cwd=cwd,
        env=child_env() if env is None else env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )


def run_pyadapt(args, cwd, env=None, stdin=None):
    """Run ``sys.executable -m pyadapt *args``."""
    return run_python(["-m", "pyadapt", *args], cwd, env, stdin)


def reports(proc):
    """The JSON reports a child printed after MARKER, in order; fails with its output if none."""
    found = [json.loads(line[len(MARKER):]) for line in proc.stdout.splitlines()
             if line.startswith(MARKER)]
    assert found, f"the child printed no report (exit {proc.returncode})\n" + describe(proc)
    return found


def report(proc):
    """The one report of a child that exited 0."""
    assert proc.returncode == 0, describe(proc)
    (found,) = reports(proc)
    return found


def describe(proc):
    return f"--- stdout ---\n{proc.stdout}\n--- stderr ---\n{proc.stderr}"


def assert_ran_under_pyadapt(state):
    """``state`` is a pyadapt_state() report of a process that pyadapt must have run."""
    assert state is not None, "pyadapt was never imported in the child: it ran natively"
    assert state["enabled"], f"pyadapt is imported but not enabled in the child: {state}"
    assert state["frames_after"] > state["frames_before"], (
        f"a call in the child did not go through pyadapt's loop (frame count did not move): {state}")


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return path


def site_dirs():
    """The directories whose .pth files site.py processes at start-up in this interpreter."""
    dirs = list(site.getsitepackages())
    if site.ENABLE_USER_SITE:
        dirs.append(site.getusersitepackages())
    return dirs


def installed_pth():
    """Path of the autostart .pth that site.py reads; fails, saying how to fix it, if absent or stale."""
    source = os.path.join(REPO, "pyadapt", "autostart", PTH_NAME)
    found = [os.path.join(d, PTH_NAME) for d in site_dirs() if os.path.isfile(os.path.join(d, PTH_NAME))]
    assert found, (
        f"{PTH_NAME} is not installed in any site directory of {sys.executable} "
        f"({', '.join(site_dirs())}), so PYADAPT=1 cannot start pyadapt there. "
        f"Install the package first: python3 -m pip install -e '.[test]' (see README.md).")
    with open(source) as f, open(found[0]) as g:
        assert f.read() == g.read(), (
            f"{found[0]} differs from {source}: the installation is stale; reinstall with "
            f"python3 -m pip install -e '.[test]'")
    return found[0]
