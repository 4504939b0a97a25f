"""``python -m pyadapt``: a program runs under pyadapt and sees what ``python`` itself would give it.

Each program runs twice, natively (``python ...``) and under pyadapt (``python -m pyadapt ...``):
sys.argv, sys.path[0], the __main__ module, stdout, stderr (tracebacks) and the exit status
must be the same, and the pyadapt run must report that pyadapt's loop evaluated it.
"""
import os
import py_compile
import signal
import sys
import zipfile

import pytest

from processes import (
    MARKER,
    PROBE,
    PYADAPT_STATE,
    assert_ran_under_pyadapt,
    child_env,
    describe,
    installed_pth,
    report,
    reports,
    run_pyadapt,
    run_python,
    write,
)


@pytest.fixture
def programs(tmp_path):
    """A directory with the probe as a script, in a package for -m, behind a symlink, as a
    directory and a zip file with __main__.py, and compiled to a .pyc file."""
    write(tmp_path / "probe.py", PROBE)
    write(tmp_path / "sub" / "probe.py", PROBE)
    write(tmp_path / "pkg" / "__init__.py", "import sys\nARGV0_AT_IMPORT = sys.argv[0]\n")
    write(tmp_path / "pkg" / "mod.py", PROBE)
    write(tmp_path / "pkg" / "__main__.py", PROBE)
    write(tmp_path / "appdir" / "__main__.py", PROBE)
    (tmp_path / "links").mkdir()
    os.symlink(tmp_path / "sub" / "probe.py", tmp_path / "links" / "probe.py")
    with zipfile.ZipFile(tmp_path / "app.pyz", "w") as app:
        app.writestr("__main__.py", PROBE)
    py_compile.compile(str(tmp_path / "probe.py"), cfile=str(tmp_path / "compiled.pyc"), doraise=True)
    return tmp_path


# The program's part of the command line; everything after the program belongs to it, even
# what looks like an option of pyadapt's or of python's.
PROGRAMS = {
    "script": ["probe.py", "a", "-b", "--no-children", "-m", "x"],
    "script-in-subdir": ["sub/probe.py", "x"],
    "script-absolute": ["{tmp}/sub/probe.py"],
    "script-via-symlink": ["links/probe.py", "y"],
    "module": ["-m", "pkg.mod", "1", "-c", "2"],
    "module-attached": ["-mpkg.mod", "3"],
    "package-main": ["-m", "pkg", "--help"],
    "code": ["-c", PROBE, "a", "b"],
    "directory": ["appdir", "z"],
    "zip-file": ["app.pyz", "z"],
    "compiled": ["compiled.pyc", "c"],
    "stdin": ["-", "s"],
    "stdin-no-program": [],   # stdin not a terminal: python runs what it reads
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_program_sees_what_python_gives_it(programs, name):
    args = [a.replace("{tmp}", str(programs)) for a in PROGRAMS[name]]
    stdin = PROBE if name.startswith("stdin") else None
    native = report(run_python(args, programs, stdin=stdin))
    adapted = report(run_pyadapt(args, programs, stdin=stdin))

    assert native.pop("pyadapt") is None
    assert_ran_under_pyadapt(adapted.pop("pyadapt"))
    assert adapted == native
    assert adapted["name"] == "__main__" and adapted["main_module_is_this"]


def test_options_before_the_program_are_pyadapts(programs):
    proc = run_pyadapt(["--no-children", "probe.py", "--no-children"], programs)
    probe = report(proc)
    assert probe["argv"] == ["probe.py", "--no-children"]
    assert_ran_under_pyadapt(probe["pyadapt"])


def test_help_explains_the_options(tmp_path):
    proc = run_pyadapt(["--help"], tmp_path)
    assert proc.returncode == 0, describe(proc)
    out = proc.stdout
    assert out.startswith("usage: python -m pyadapt [options]")
    for text in ("script.py", "-m module", "-c code", "--no-children", "PYADAPT=1"):
        assert text in out, f"--help does not mention {text!r}:\n{out}"


@pytest.mark.parametrize("args, message", [
    (["--bogus", "x.py"], "unrecognized arguments: --bogus"),
    (["--no-ch", "x.py"], "unrecognized arguments: --no-ch"),
    (["-u", "x.py"], "unrecognized arguments: -u (python's own options go before -m pyadapt"),
    (["-m"], "argument -m: expected one argument"),
    (["-c"], "argument -c: expected one argument"),
    # an option's value forgotten: the program was taken for it, or an option follows
    (["--report", "prog.py"], "argument --report: 'prog.py' was taken as DIR and no program"),
    (["--stats-json", "out.json"], "'out.json' was taken as FILE and no program"),
    (["--stats-json"], "argument --stats-json: expected one argument"),
    (["--report", "-m", "json.tool"], "argument --report: expected one argument"),
    (["--warmup", "--generic", "x.py"], "argument --warmup: expected one argument"),
    (["--warmup", "lots", "x.py"], "argument --warmup: expected a count of executions"),
    (["--stats=yes", "x.py"], "argument --stats: ignored explicit argument 'yes'"),
    (["--report", "x.py", "x.py"], "argument --report: 'x.py' is not a directory"),
    # contradictions
    (["--generic", "--warmup", "5", "x.py"], "--generic and --warmup contradict each other"),
    (["--warmup=0", "--generic", "-c", "pass"], "--generic and --warmup contradict each other"),
])
def test_usage_errors(tmp_path, args, message):
    write(tmp_path / "x.py", "print('ran')\n")
    proc = run_pyadapt(args, tmp_path)
    assert proc.returncode == 2, describe(proc)
    assert "usage: python -m pyadapt" in proc.stderr and message in proc.stderr, describe(proc)


# Programs that end badly, each printing pyadapt's state first so that the pyadapt run can
# prove it ran under pyadapt.  stdout, stderr and the exit status must equal the native run's.
REPORT_STATE = PYADAPT_STATE + f'''
import json as _json
print({MARKER!r} + _json.dumps(pyadapt_state()), flush=True)
'''

FAILING = {
    "exception": REPORT_STATE + '''
def outer(x):
    return inner(x) + 1

def inner(x):
    return {"a": 1}[x]

outer("missing")
''',
    "chained-exception": REPORT_STATE + '''
try:
    1 / 0
except ZeroDivisionError as exc:
    raise ValueError("while dividing") from exc
''',
    "exit-int": REPORT_STATE + "import sys\nsys.exit(3)\n",
    "exit-message": REPORT_STATE + "import sys\nsys.exit('goodbye')\n",
    "exit-none": REPORT_STATE + "raise SystemExit\n",
    "exception-then-atexit": REPORT_STATE + '''
import atexit
atexit.register(print, "atexit ran")
raise RuntimeError("boom")
''',
    "keyboard-interrupt": REPORT_STATE + '''
import atexit
atexit.register(print, "atexit ran")
raise KeyboardInterrupt
''',
}

EXPECTED_STATUS = {
    "exception": 1,
    "chained-exception": 1,
    "exit-int": 3,
    "exit-message": 1,
    "exit-none": 0,
    "exception-then-atexit": 1,
    "keyboard-interrupt": -signal.SIGINT,  # python dies of SIGINT, after atexit
}


def _same_ending(native, adapted):
    assert adapted.returncode == native.returncode, describe(adapted)
    native_out = [line for line in native.stdout.splitlines() if not line.startswith(MARKER)]
    adapted_out = [line for line in adapted.stdout.splitlines() if not line.startswith(MARKER)]
    assert adapted_out == native_out
    assert adapted.stderr == native.stderr


@pytest.mark.parametrize("name", FAILING)
@pytest.mark.parametrize("kind", ["script", "module", "code", "directory"])
def test_failing_program_ends_as_natively(tmp_path, name, kind):
    source = FAILING[name]
    if kind == "script":
        write(tmp_path / "fails.py", source)
        args = ["fails.py", "arg"]
    elif kind == "module":
        write(tmp_path / "failpkg" / "__init__.py", "")
        write(tmp_path / "failpkg" / "fails.py", source)
        args = ["-m", "failpkg.fails"]
    elif kind == "directory":
        write(tmp_path / "faildir" / "__main__.py", source)
        args = ["faildir"]
    else:
        args = ["-c", source]
    native = run_python(args, tmp_path)
    adapted = run_pyadapt(args, tmp_path)

    assert native.returncode == EXPECTED_STATUS[name], describe(native)
    _same_ending(native, adapted)
    (native_state,) = reports(native)
    (adapted_state,) = reports(adapted)
    assert native_state is None
    assert_ran_under_pyadapt(adapted_state)
    if name in ("exception", "chained-exception", "keyboard-interrupt"):
        assert "Traceback (most recent call last):" in adapted.stderr
        assert "pyadapt" not in adapted.stderr, "pyadapt's own frames show in the traceback"


@pytest.mark.parametrize("case", ["syntax-error", "missing-script", "missing-module",
                                  "package-without-main", "directory-without-main",
                                  "failing-parent-package", "syntax-error-in-module",
                                  "failing-parent-of-package-main", "zip-without-main"])
def test_program_that_cannot_start_fails_as_natively(tmp_path, case):
    if case == "syntax-error":
        write(tmp_path / "bad.py", "x = (\n")
        args = ["bad.py"]
    elif case == "missing-script":
        args = ["nowhere.py"]
    elif case == "missing-module":
        args = ["-m", "no_such_module_here"]
    elif case == "package-without-main":
        write(tmp_path / "plainpkg" / "__init__.py", "")
        args = ["-m", "plainpkg"]
    elif case == "directory-without-main":
        (tmp_path / "emptydir").mkdir()
        args = ["emptydir"]
    elif case == "syntax-error-in-module":
        write(tmp_path / "okpkg" / "__init__.py", "")
        write(tmp_path / "okpkg" / "bad.py", "x = (\n")
        args = ["-m", "okpkg.bad"]
    elif case == "failing-parent-of-package-main":
        write(tmp_path / "runpkg" / "__init__.py", "raise RuntimeError('broken package')\n")
        write(tmp_path / "runpkg" / "__main__.py", "print('never')\n")
        args = ["-m", "runpkg"]
    elif case == "zip-without-main":
        with zipfile.ZipFile(tmp_path / "nomain.pyz", "w") as app:
            app.writestr("other.py", "print('never')\n")
        args = ["nomain.pyz"]
    else:
        write(tmp_path / "brokenpkg" / "__init__.py", "raise ImportError('broken parent')\n")
        write(tmp_path / "brokenpkg" / "mod.py", "print('never')\n")
        args = ["-m", "brokenpkg.mod"]
    native = run_python(args, tmp_path)
    adapted = run_pyadapt(args, tmp_path)
    assert native.returncode != 0
    assert adapted.returncode == native.returncode, describe(adapted)
    # the whole traceback: runpy's frames as natively, none of the launcher's
    assert adapted.stderr == native.stderr


CHILD = PYADAPT_STATE + f'''
import json, os, sys
print({MARKER!r} + json.dumps({{
    "PYADAPT": os.environ.get("PYADAPT"),
    "imported_at_start": {'"pyadapt" in sys.modules'},
    "pyadapt": pyadapt_state(),
}}))
'''

SPAWNS_CHILD = PYADAPT_STATE + f'''
import json, subprocess, sys
print({MARKER!r} + json.dumps(pyadapt_state()), flush=True)
subprocess.run([sys.executable, "-c", {CHILD!r}], check=True)
'''


def test_child_processes_start_under_pyadapt(tmp_path):
    installed_pth()  # the children start under pyadapt through the autostart .pth
    write(tmp_path / "parent.py", SPAWNS_CHILD)
    proc = run_pyadapt(["parent.py"], tmp_path, env=child_env())
    assert proc.returncode == 0, describe(proc)
    parent, child = reports(proc)
    assert_ran_under_pyadapt(parent)
    assert child["PYADAPT"] == "1"
    assert child["imported_at_start"], "the child did not start under pyadapt (autostart .pth)"
    assert_ran_under_pyadapt(child["pyadapt"])


@pytest.mark.parametrize("inherited", [None, "1"])
def test_no_children_keeps_child_processes_native(tmp_path, inherited):
    write(tmp_path / "parent.py", SPAWNS_CHILD)
    proc = run_pyadapt(["--no-children", "parent.py"], tmp_path, env=child_env(PYADAPT=inherited))
    assert proc.returncode == 0, describe(proc)
    parent, child = reports(proc)
    assert_ran_under_pyadapt(parent)
    assert child["PYADAPT"] is None
    assert not child["imported_at_start"]
    assert child["pyadapt"] is None


MULTIPROCESSING_PROGRAM = PYADAPT_STATE + f'''
import json, multiprocessing

def worker(_):
    return pyadapt_state()

if __name__ == "__main__":
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        (state,) = pool.map(worker, [0])
    print({MARKER!r} + json.dumps(state))
'''


def test_multiprocessing_spawn_worker_of_a_pyadapt_program(tmp_path):
    # The worker re-imports the program as __mp_main__ from __main__.__file__: this also
    # checks that the program's __main__ module is the one python would have made.
    installed_pth()  # the worker starts under pyadapt through the autostart .pth
    write(tmp_path / "mp_program.py", MULTIPROCESSING_PROGRAM)
    proc = run_pyadapt(["mp_program.py"], tmp_path)
    (state,) = reports(proc)
    assert proc.returncode == 0, describe(proc)
    assert_ran_under_pyadapt(state)


def test_pyadapt_program_can_pickle_its_own_classes(tmp_path):
    write(tmp_path / "pickles.py", REPORT_STATE + '''
import pickle

class Point:
    def __init__(self, x):
        self.x = x

print("PICKLED", pickle.loads(pickle.dumps(Point(7))).x)
''')
    proc = run_pyadapt(["pickles.py"], tmp_path)
    assert proc.returncode == 0, describe(proc)
    assert "PICKLED 7" in proc.stdout
    (state,) = reports(proc)
    assert_ran_under_pyadapt(state)


@pytest.mark.skipif(not hasattr(sys.flags, "safe_path"), reason="python -P is new in 3.11")
def test_sys_path0_is_not_set_in_safe_path_mode(tmp_path):
    write(tmp_path / "sub" / "probe.py", PROBE)
    native = report(run_python(["-P", "sub/probe.py"], tmp_path))
    adapted = report(run_python(["-P", "-m", "pyadapt", "sub/probe.py"], tmp_path))
    assert native.pop("pyadapt") is None
    assert_ran_under_pyadapt(adapted.pop("pyadapt"))
    assert adapted == native
    assert native["path0"] != str(tmp_path / "sub")


# What a program sees of its own stack: nothing of the launcher's, under every way of starting
# it (../shared/repro/stackpkg: the launcher's frames showed in traceback.extract_stack(),
# shifted warnings.warn(stacklevel=2) to pyadapt/__main__.py and added two entries to
# inspect.stack()).
STACK_PROBE = REPORT_STATE + """
import inspect, os, sys, traceback, warnings

def show(where):
    print(where, [(os.path.basename(f.filename), f.lineno, f.name)
                  for f in traceback.extract_stack()[:-1]])
    frame, chain = sys._getframe(), []
    while frame is not None:
        chain.append((os.path.basename(frame.f_code.co_filename), frame.f_code.co_name))
        frame = frame.f_back
    print(where, "frames", chain)
    print(where, "inspect.stack()", [(os.path.basename(f.filename), f.function)
                                     for f in inspect.stack()])

def warn_caller():
    warnings.warn("from a function", stacklevel=2)

def dive(n=0):
    try:
        return dive(n + 1)
    except RecursionError:
        return n

show("top level")
warn_caller()
warnings.warn("at top level, one level out", stacklevel=2)
print("recursion depth", dive())
"""

STACK_KINDS = {
    "script": ["stack.py"],
    "module": ["-m", "stackpkg.stack"],
    "package-main": ["-m", "stackpkg"],
    "code": ["-c", STACK_PROBE],
    "directory": ["stackdir"],
    "zip-file": ["stack.pyz"],
    "stdin": ["-"],
}


@pytest.mark.parametrize("kind", STACK_KINDS)
def test_program_sees_no_launcher_frames(tmp_path, kind):
    write(tmp_path / "stack.py", STACK_PROBE)
    write(tmp_path / "stackpkg" / "__init__.py", "")
    write(tmp_path / "stackpkg" / "stack.py", STACK_PROBE)
    write(tmp_path / "stackpkg" / "__main__.py", STACK_PROBE)
    write(tmp_path / "stackdir" / "__main__.py", STACK_PROBE)
    with zipfile.ZipFile(tmp_path / "stack.pyz", "w") as app:
        app.writestr("__main__.py", STACK_PROBE)
    args = STACK_KINDS[kind]
    stdin = STACK_PROBE if kind == "stdin" else None
    native = run_python(args, tmp_path, stdin=stdin)
    adapted = run_pyadapt(args, tmp_path, stdin=stdin)
    assert native.returncode == 0, describe(native)
    _same_ending(native, adapted)
    assert "pyadapt" not in adapted.stdout.replace(MARKER, "")
    assert_ran_under_pyadapt(reports(adapted)[0])


# The interactive console: python's own loop, every statement under pyadapt.  Standard input
# is a pipe here, so python's console runs only with -i; without it, python runs stdin as a
# program (test_program_sees_what_python_gives_it, "stdin-no-program").
# (No blank line inside a block: the console ends a block at a blank line.)
CONSOLE_INPUT = f"""import json, sys
def pyadapt_state():
    pyadapt = sys.modules.get("pyadapt")
    if pyadapt is None:
        return None
    before = pyadapt.stats()["frames"]
    sum(i * i for i in range(10))
    return {{"enabled": pyadapt.is_enabled(), "frames_before": before,
             "frames_after": pyadapt.stats()["frames"]}}

print({MARKER!r} + json.dumps(pyadapt_state()))
print(sys._getframe().f_back, __name__, sys.argv)
x = 6 *
print(x)
1 / 0
print("still going")
"""


@pytest.mark.parametrize("case", ["-i after -c", "-i after a failing -c", "-i after SystemExit",
                                  "-i after a script", "python -i, -m pyadapt"])
def test_interactive_console_after_the_program(tmp_path, case):
    write(tmp_path / "prog.py", "import sys\nx = 42\n")
    program = {
        "-i after -c": ["-c", "import sys; x = 42"],
        "-i after a failing -c": ["-c", "import sys; x = 42; x.missing"],
        "-i after SystemExit": ["-c", "import sys; x = 42; sys.exit(3)"],
        "-i after a script": ["prog.py", "arg"],
        "python -i, -m pyadapt": ["-c", "import sys; x = 42"],
    }[case]
    native = run_python(["-i", *program], tmp_path, stdin=CONSOLE_INPUT)
    if case.startswith("python -i"):
        adapted = run_python(["-i", "-m", "pyadapt", *program], tmp_path, stdin=CONSOLE_INPUT)
    else:
        adapted = run_pyadapt(["-i", *program], tmp_path, stdin=CONSOLE_INPUT)
    assert native.returncode == 0, describe(native)
    _same_ending(native, adapted)
    assert ">>> " in adapted.stderr and "SyntaxError" in adapted.stderr
    assert "still going" in adapted.stdout
    assert_ran_under_pyadapt(reports(adapted)[0])


@pytest.mark.parametrize("program", [[], ["-"]])
def test_interactive_console_without_a_program(tmp_path, program):
    # python -i with no program (or -): the banner (one more line under pyadapt, saying so),
    # then the console; the same with pyadapt's own -i.
    native = run_python(["-i", *program], tmp_path, stdin=CONSOLE_INPUT)
    for adapted in (run_pyadapt(["-i", *program], tmp_path, stdin=CONSOLE_INPUT),
                    run_python(["-i", "-m", "pyadapt", *program], tmp_path, stdin=CONSOLE_INPUT)):
        assert adapted.returncode == native.returncode == 0, describe(adapted)
        banner = [line for line in adapted.stderr.splitlines() if line.startswith("pyadapt ")]
        assert len(banner) == 1 and "runs under pyadapt" in banner[0], describe(adapted)
        assert adapted.stderr.replace(banner[0] + "\n", "") == native.stderr
        assert adapted.stdout.replace(MARKER, "").splitlines()[1:] == \
            native.stdout.replace(MARKER, "").splitlines()[1:]
        assert_ran_under_pyadapt(reports(adapted)[0])


def test_stdin_program_without_a_program_argument(tmp_path):
    # echo 'print(1+1)' | python -m pyadapt: what echo 'print(1+1)' | python does
    for source, status in (("print(1 + 1)\n", 0), ("raise SystemExit(4)\n", 4),
                           ("import sys; print(sys.argv, repr(sys.path[0]))\n1 / 0\n", 1)):
        native = run_python([], tmp_path, stdin=source)
        adapted = run_pyadapt([], tmp_path, stdin=source)
        assert native.returncode == status
        _same_ending(native, adapted)


def test_version(tmp_path):
    import importlib.metadata

    import pyadapt

    proc = run_pyadapt(["--version"], tmp_path)
    assert proc.returncode == 0, describe(proc)
    assert proc.stdout == f"pyadapt {pyadapt.__version__}\n"
    assert pyadapt.__version__ == importlib.metadata.version("pyadapt")


LAUNCHER_IMPORTS = ("argparse", "zipfile", "pathlib", "urllib.parse", "ipaddress", "re", "enum",
                    "pyadapt._report", "pyadapt._introspect", "hashlib", "html", "tokenize",
                    "textwrap", "ctypes")


@pytest.mark.parametrize("args", [["empty.py"], ["-c", "pass"], ["-m", "emptypkg.mod"],
                                  ["emptydir"]])
def test_launcher_work_is_native(tmp_path, args):
    """The launcher's own work is not compiled by pyadapt, and it imports nothing heavy: an
    empty program compiles as many code objects as it has (1; with -m, the import of its
    package and runpy's frames, which python runs too), and its report lists only it."""
    for path in ("empty.py", "emptypkg/__init__.py", "emptypkg/mod.py", "emptydir/__main__.py"):
        write(tmp_path / path, "")
    # the report shows the code objects still alive at exit: runpy keeps mod.py's, but nothing
    # keeps an imported module's body (on 3.12 an empty one was still alive at exit in a venv
    # with setuptools' .pth and gone in a fresh one); the package keeps its own, so its page
    # says whether its import ran under pyadapt
    write(tmp_path / "emptypkg/__init__.py", "import sys\n_CODE = sys._getframe().f_code\n")
    # --compile-after 0: whatever the launcher ran under pyadapt would be compiled and show
    proc = run_pyadapt(["--compile-after", "0", "--stats-json", "stats.json", "--report", "report",
                        *args], tmp_path)
    assert proc.returncode == 0, describe(proc)
    import json

    stats = json.loads((tmp_path / "stats.json").read_text())
    pages = {p.name.split("-")[0] for p in (tmp_path / "report").glob("*.html")}
    # what the launcher used to compile under pyadapt (its zip-file check)
    assert not pages & {"zipfile.py", "pathlib.py", "parse.py", "ipaddress.py", "enum.py",
                        "__main__.py-pyadapt"}, pages
    if args[0] == "-m":
        assert {"__init__.py", "mod.py"} <= pages
    elif args[0] == "emptydir":
        assert "__main__.py" in pages
    else:
        # threading._shutdown runs at exit under pyadapt when start-up imported threading
        # (python does it too: a .pth file of this machine imports certifi, and with it
        # zipfile and threading); that is the program's process, not the launcher's work
        starts = run_python(["-c", "import sys; print('threading' in sys.modules)"], tmp_path)
        at_exit = {"threading.py"} if starts.stdout.strip() == "True" else set()
        # -c: the program's page is its code ("<string>")
        want = {"index.html", "empty.py" if args[0] == "empty.py" else "_string_"}
        assert want <= pages <= want | at_exit, pages
        if not at_exit:
            assert stats["compiled"] == 1, stats
    probe = "import sys; print(sorted(m for m in %r if m in sys.modules))" % (LAUNCHER_IMPORTS,)
    native = run_python(["-c", probe], tmp_path)
    adapted = run_python(["-m", "pyadapt", "-c", probe], tmp_path)
    assert native.returncode == adapted.returncode == 0, describe(adapted)
    assert adapted.stdout == native.stdout, "the launcher imported modules python does not"


def test_interactive_console_on_a_terminal(tmp_path):
    """python -m pyadapt with a terminal on stdin: python's console (banner, prompts), every
    statement run by pyadapt's loop (its frame count moves from one statement to the next)."""
    import pty
    import select
    import subprocess
    import time

    leader, follower = pty.openpty()
    env = child_env(PYTHONSTARTUP=None, TERM="dumb")
    proc = subprocess.Popen([sys.executable, "-m", "pyadapt"], stdin=follower, stdout=follower,
                            stderr=follower, cwd=tmp_path, env=env, close_fds=True)
    os.close(follower)
    lines = ("import pyadapt, sys\n", "frames = pyadapt.stats()['frames']\n",
             "print('answer', 6 * 7, pyadapt.stats()['frames'] > frames, sys.argv)\n",
             "raise SystemExit(5)\n")
    output = b""
    deadline = time.monotonic() + 60
    try:
        for line in lines:
            while not output.endswith(b">>> ") and time.monotonic() < deadline:
                ready, _, _ = select.select([leader], [], [], 1)
                if ready:
                    output += os.read(leader, 4096)
            output = output[:-4] + b"<prompt>"
            os.write(leader, line.encode())
        while time.monotonic() < deadline and proc.poll() is None:
            ready, _, _ = select.select([leader], [], [], 0.5)
            if ready:
                try:
                    output += os.read(leader, 4096)
                except OSError:
                    break
        assert proc.wait(timeout=30) == 5
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(leader)
    text = output.decode(errors="replace").replace("\r\n", "\n")
    assert text.startswith("Python %s on %s\n" % (sys.version, sys.platform)), text
    assert "pyadapt " in text and "runs under pyadapt" in text
    assert "answer 42 True ['']" in text, text


@pytest.mark.parametrize("args", [["-i"], ["-i", "-c", "x = 1"], ["-i", "-c", "1 / 0"],
                                  ["-i", "-"]])
def test_console_set_up_is_native(tmp_path, args):
    """The console's set-up (ctypes, PYTHONSTARTUP's reading, the launcher's own functions)
    is not compiled by pyadapt; the statements typed in it are."""
    write(tmp_path / "startup.py", "started = True\n")
    # the statement names its own code's file: python's console calls it "<stdin>", and
    # 3.13's "<stdin>-N", N counting the statements read
    statement = ("from pyadapt import _pyadapt; import sys\n"
                 "print('COMPILED', sorted({c.co_filename for c in _pyadapt._compiled_codes()}),"
                 " repr(sys._getframe().f_code.co_filename))\n")
    proc = run_pyadapt(args, tmp_path, stdin=statement,
                       env=child_env(PYTHONSTARTUP=str(tmp_path / "startup.py")))
    assert proc.returncode == 0, describe(proc)
    (line,) = [ln for ln in proc.stdout.splitlines() if ln.startswith("COMPILED")]
    import ast
    import pyadapt

    files, _, typed = line[len("COMPILED "):].rpartition(" ")
    files, typed = ast.literal_eval(files), ast.literal_eval(typed)
    package = os.path.dirname(pyadapt.__file__)
    assert typed.startswith("<stdin>") and typed in files, (typed, files)
    assert not [f for f in files if f.startswith(package) or "ctypes" in f], files
    if len(args) == 1:
        assert str(tmp_path / "startup.py") in files   # PYTHONSTARTUP ran, under pyadapt
