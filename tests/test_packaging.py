"""pyadapt as a package: the sdist holds what a wheel is built from, a wheel built from it in a
fresh venv works, and the build knows its inputs.

The sdist once held only the four ``.c`` files (no headers, no .pth): a wheel could not be
built from it.  A header change once left stale objects in a rebuilt wheel.
"""
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIMEOUT = 600


def _sources(destination):
    """A copy of the repository as a clean clone has it: the files git knows (tracked, or new
    and not ignored), without build products."""
    try:
        listed = subprocess.run(
            ["git", "-C", REPO, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            capture_output=True, check=True, timeout=60).stdout.decode().split("\0")
    except (OSError, subprocess.CalledProcessError):
        listed = None
    if listed is None:
        shutil.copytree(REPO, destination, ignore=shutil.ignore_patterns(
            ".git", "__pycache__", "*.so", "*.o", "build", "dist", "*.egg-info", ".venv*",
            "_pyadapt.c"))
        return
    for name in filter(None, listed):
        if not os.path.isfile(os.path.join(REPO, name)):
            continue   # deleted in the work tree, not yet in git
        target = os.path.join(destination, name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(os.path.join(REPO, name), target)


def _run(args, cwd, **kwargs):
    proc = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT,
                          **kwargs)
    assert proc.returncode == 0, f"{args}\n--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}"
    return proc


def test_build_depends_on_every_header():
    # setuptools rebuilds the extension when a file of `depends` is newer than it.
    proc = _run([sys.executable, "-c",
                 "import runpy; b = runpy.run_path('pyadapt/_build.py')['ffibuilder'];"
                 "print('\\n'.join(b._assigned_source[3]['depends']))"], REPO)
    depends = set(proc.stdout.split())
    headers = {os.path.join("csrc", name) for name in os.listdir(os.path.join(REPO, "csrc"))
               if name.endswith(".h")}
    assert headers and headers <= depends, headers - depends


@pytest.mark.packaging
def test_sdist_builds_a_working_wheel_in_a_fresh_venv(tmp_path):
    source = tmp_path / "clone"
    _sources(source)
    dist = tmp_path / "dist"
    dist.mkdir()
    # the PEP 517 backend directly: no 'build' package needed
    _run([sys.executable, "-c",
          f"from setuptools import build_meta; print(build_meta.build_sdist({str(dist)!r}))"],
         source)
    (sdist,) = dist.glob("pyadapt-*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    for needed in ("setup.py", "pyproject.toml", "LICENSE", "README.md", "MANIFEST.in",
                   "pyadapt/_build.py", "pyadapt/autostart/pyadapt-autostart.pth",
                   "pyadapt/__init__.py", "pyadapt/__main__.py"):
        assert needed in names, f"{needed} is missing from the sdist"
    for name in os.listdir(source / "csrc"):
        assert f"csrc/{name}" in names, f"csrc/{name} is missing from the sdist"
    assert not [n for n in names if n.endswith((".so", ".o", ".pyc"))]

    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], tmp_path)
    python = str(venv / "bin" / "python")
    wheels = tmp_path / "wheels"
    _run([python, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(sdist)],
         tmp_path)
    (wheel,) = wheels.glob("pyadapt-*.whl")
    with zipfile.ZipFile(wheel) as whl:
        contents = set(whl.namelist())
        metadata = whl.read(next(n for n in contents if n.endswith(".dist-info/METADATA")))
        entry_points = whl.read(next(n for n in contents
                                     if n.endswith(".dist-info/entry_points.txt")))
    assert "pyadapt-autostart.pth" in contents
    assert "pyadapt/_build.py" not in contents, "the build script is shipped in the wheel"
    assert any(n.startswith("pyadapt/_pyadapt") and n.endswith(".so") for n in contents)
    assert any(".dist-info/" in n and n.endswith("/LICENSE") for n in contents), contents
    metadata = metadata.decode()
    for field in ("License: MIT", "Classifier: Programming Language :: Python :: 3.11",
                  "Classifier: License :: OSI Approved :: MIT License", "Project-URL: ",
                  "Summary: A specializing adaptive interpreter"):
        assert field in metadata, f"{field!r} not in the wheel's metadata"
    assert b"pyadapt = pyadapt.__main__:command" in entry_points

    _run([python, "-m", "pip", "install", "-q", str(wheel)], tmp_path)
    program = tmp_path / "program.py"
    program.write_text("import pyadapt, sys\n"
                       "before = pyadapt.stats()['frames']\n"
                       "def f(): return 1\n"
                       "f()\n"
                       "print(pyadapt.is_enabled(), pyadapt.stats()['frames'] > before, "
                       "pyadapt.__version__, sys.argv[1:])\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYADAPT")}
    outside = tmp_path / "elsewhere"   # not the source tree: the installed package runs
    outside.mkdir()
    version = _run([python, "-m", "pyadapt", "--version"], outside, env=env).stdout.split()[1]
    for launcher in ([python, "-m", "pyadapt"], [str(venv / "bin" / "pyadapt")]):
        proc = _run([*launcher, str(program), "x"], outside, env=env)
        assert proc.stdout == f"True True {version} ['x']\n", proc.stdout
    # the console command: sys.path[0] is the cwd's program directory, as with python -m
    proc = _run([str(venv / "bin" / "pyadapt"), "-c", "import sys; print(sys.path[0])"],
                outside, env=env)
    assert proc.stdout == "\n"
    proc = _run([python, "-c", "import pyadapt._autostart, pyadapt; print(pyadapt.is_enabled())"],
                outside, env={**env, "PYADAPT": "1"})
    assert proc.stdout == "True\n" and not proc.stderr, proc.stderr
