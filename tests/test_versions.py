"""Which interpreters pyadapt supports, said once (pyadapt/_versions.py) and refused early.

An unsupported interpreter once got 744 lines and 107 gcc errors from ``pip install .``
(issue 11).  Now setup.py refuses it in one line before any compiler runs, and ``import
pyadapt`` raises ImportError naming the supported versions.  pyproject.toml repeats the list
(requires-python, classifiers): kept equal here.
"""
import os
import re
import shutil
import subprocess
import sys
import tomllib

import pytest

from pyadapt import _versions

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Interpreters of other versions on this machine (pyenv), for the refusal tests.
OTHERS = ["3.10.13"]


def _pyenv_python(version):
    pyenv = shutil.which("pyenv")
    if pyenv is None:
        return None
    proc = subprocess.run([pyenv, "prefix", version], capture_output=True, text=True)
    python = os.path.join(proc.stdout.strip(), "bin", "python")
    return python if proc.returncode == 0 and os.path.exists(python) else None


def _other(version):
    python = _pyenv_python(version)
    if python is None:
        pytest.skip("pyenv's CPython %s is not installed here" % version)
    return python


def test_pyproject_says_the_supported_versions():
    with open(os.path.join(REPO, "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)["project"]
    assert project["requires-python"] == _versions.requires_python()
    listed = {tuple(map(int, c.rsplit(" ", 1)[1].split(".")))
              for c in project["classifiers"]
              if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)}
    assert listed == set(_versions.SUPPORTED_VERSIONS)


def test_this_interpreter_is_supported_and_others_are_refused():
    import pyadapt
    assert pyadapt.SUPPORTED_VERSIONS == _versions.SUPPORTED_VERSIONS
    assert _versions.refusal() is None
    assert _versions.refusal("cpython", (3, 11, 7)) is None
    assert _versions.refusal("cpython", (3, 12, 1)) is None
    assert _versions.refusal("cpython", (3, 13, 0)) is None
    line = _versions.refusal("cpython", (3, 14, 0))
    assert "CPython 3.11, 3.12, 3.13 only" in line and "3.14.0" in line and "\n" not in line
    line = _versions.refusal("cpython", (3, 10, 13))
    assert "CPython 3.11, 3.12, 3.13 only" in line and "3.10.13" in line
    assert "pypy" in _versions.refusal("pypy", (3, 11, 0))


@pytest.mark.parametrize("version", OTHERS)
def test_import_on_an_unsupported_version_raises_import_error(version):
    python = _other(version)
    proc = subprocess.run(
        [python, "-c", "import sys; sys.path.insert(0, %r); import pyadapt" % REPO],
        capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    last = proc.stderr.strip().splitlines()[-1]
    assert last == "ImportError: " + _versions.refusal("cpython", tuple(map(int, version.split(".")))), (
        proc.stderr)


def _source_tree(destination):
    """The files git knows, as a clean clone has them (no build products)."""
    listed = subprocess.run(
        ["git", "-C", REPO, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True, check=True, timeout=60).stdout.decode().split("\0")
    for name in filter(None, listed):
        if os.path.isfile(os.path.join(REPO, name)):
            target = os.path.join(destination, name)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copy2(os.path.join(REPO, name), target)


@pytest.mark.packaging
@pytest.mark.parametrize("version", OTHERS)
def test_pip_on_an_unsupported_version_refuses_before_compiling(version, tmp_path):
    python = _other(version)
    if subprocess.run([python, "-m", "pip", "--version"], capture_output=True).returncode:
        pytest.skip("CPython %s has no pip" % version)
    source = tmp_path / "src"
    _source_tree(source)
    # pip wheel, not install: nothing lands in that interpreter even if the refusal failed
    proc = subprocess.run(
        [python, "-m", "pip", "wheel", "--no-deps", "-w", str(tmp_path / "wheels"), str(source)],
        capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert proc.returncode != 0
    out = proc.stdout + proc.stderr
    line = "error: " + _versions.refusal("cpython", tuple(map(int, version.split("."))))
    assert line in out.splitlines() or ("      " + line) in out.splitlines(), out
    assert "gcc" not in out and "error:" not in out.replace(line, "").replace(
        "error: subprocess-exited-with-error", ""), out
    assert not (source / "build").exists(), "the build started"
