"""Cold code in whole-process mode (``compile_after``): the hook leaves the first frames of a
code object to CPython's loop and compiles it at its (compile_after + 1)-th entry; functions
with a loop at their first; inside run() and for @jit everything at once.  Each case runs in a
child interpreter (whole-process mode is process-wide) and compares with a native run where a
program could tell the difference."""
import json
import os
import subprocess
import sys

from harness import assert_subprocess_ok, run_python


def _env(**extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYADAPT")}
    env.update(extra)
    return env


def test_loop_free_function_cold_then_compiled():
    proc = run_python("""
        import pyadapt
        from pyadapt import _core
        pyadapt.configure(compile_after=2)

        def f(n):
            return n * 2

        s0 = pyadapt.stats()
        pyadapt.enable()
        out = []
        for i in range(3):                      # this module frame runs natively: f is
            out.append(f(i))                    # entered through the hook each time
            out.append(_core.unit_address(f.__code__) != 0)
        pyadapt.disable()
        s1 = pyadapt.stats()
        assert out == [0, False, 2, False, 4, True], out
        assert s1["fallbacks"]["cold"] - s0["fallbacks"]["cold"] == 2, (s0, s1)
        assert s1["compiled"] - s0["compiled"] == 1, (s0, s1)
        assert s1["frames"] - s0["frames"] == 1, (s0, s1)
        assert pyadapt.unit_info(f)["entries"] == 1
        print("ok")
        """)
    assert_subprocess_ok(proc, "ok\n")


def test_function_with_loop_compiled_at_first_entry_module_body_cold(tmp_path):
    (tmp_path / "coldmod.py").write_text("X = [i for i in range(3)]\nfor i in range(2):\n    X.append(i)\n")
    proc = run_python("""
        import sys, pyadapt
        sys.path.insert(0, %r)
        pyadapt.configure(compile_after=5)

        def looping(n):
            t = 0
            for i in range(n):
                t += i
            return t

        pyadapt.enable()
        r = looping(10)
        import coldmod
        pyadapt.disable()
        assert r == 45
        assert pyadapt.unit_info(looping)["entries"] == 1
        # a module body is not a function: cold however many loops it has
        assert coldmod.X == [0, 1, 2, 0, 1]
        assert pyadapt.stats()["fallbacks"]["cold"] >= 1
        print("ok")
        """ % str(tmp_path))
    assert_subprocess_ok(proc, "ok\n")


def test_loop_found_past_extended_arg_and_loop_free_code_left_cold():
    """pa_code_has_loop walks opcodes and caches without their opargs and reads the code
    properly only past something whose reading could fail (EXTENDED_ARG, say): a function
    whose first loop comes after an EXTENDED_ARG is still compiled at its first entry, and
    loop-free functions, with and without EXTENDED_ARG, stay cold.  The test checks with dis
    that the EXTENDED_ARG really comes before the loop, so it cannot stop testing that path."""
    proc = run_python("""
        import dis, pyadapt
        from pyadapt import _core
        pyadapt.configure(compile_after=5)
        # 300 distinct constants: LOAD_CONST's index needs an EXTENDED_ARG past 255
        consts = "".join("    a%d = %d\\n" % (i, 1000 + i) for i in range(300))
        src = ("def ext_loop(n):\\n" + consts + "    t = a299\\n"
               "    for i in range(n):\\n        t += i\\n    return t\\n"
               "def ext_flat(n):\\n" + consts + "    return a299 + n\\n"
               "def plain_loop(n):\\n    t = 0\\n    while n:\\n        t += n\\n"
               "        n -= 1\\n    return t\\n"
               "def plain_flat(n):\\n    return n + 1\\n")
        ns = {}
        exec(src, ns)
        ops = [i.opname for i in dis.get_instructions(ns["ext_loop"])]
        back = [k for k, op in enumerate(ops) if op.startswith("JUMP_BACKWARD")]
        assert back and "EXTENDED_ARG" in ops[:back[0]], ops[:20]
        assert "EXTENDED_ARG" in [i.opname for i in dis.get_instructions(ns["ext_flat"])]
        pyadapt.enable()
        out = [ns["ext_loop"](4), ns["ext_flat"](1), ns["plain_loop"](4), ns["plain_flat"](1)]
        pyadapt.disable()
        assert out == [1299 + 6, 1300, 10, 2], out
        compiled = {name: _core.unit_address(ns[name].__code__) != 0
                    for name in ("ext_loop", "ext_flat", "plain_loop", "plain_flat")}
        assert compiled == {"ext_loop": True, "ext_flat": False, "plain_loop": True,
                            "plain_flat": False}, compiled
        assert pyadapt.unit_info(ns["ext_loop"])["entries"] == 1
        print("ok")
        """)
    assert_subprocess_ok(proc, "ok\n")


def test_run_and_jit_compile_at_once():
    proc = run_python("""
        import pyadapt
        pyadapt.configure(compile_after=1000)

        def f(n):
            return n + 1

        def g(n):
            return n + 2

        pyadapt.enable()
        assert pyadapt.run(f, 1) == 2             # asked for explicitly: pyadapt at once
        assert pyadapt.unit_info(f)["entries"] == 1
        assert list(map(f, [1])) == [2]            # compiled by run(): in pyadapt from now on
        assert pyadapt.unit_info(f)["entries"] == 2
        pyadapt.jit(g)
        assert g(1) == 3
        assert pyadapt.unit_info(g)["entries"] == 1
        pyadapt.disable()
        print("ok")
        """)
    assert_subprocess_ok(proc, "ok\n")


def test_configure_and_environment():
    proc = run_python("""
        import pyadapt
        assert pyadapt.config()["compile_after"] == 7, pyadapt.config()
        pyadapt.configure(compile_after=0)
        assert pyadapt.config()["compile_after"] == 0
        for bad in (-1, 1.5, True, 1 << 31, "2"):
            try:
                pyadapt.configure(compile_after=bad)
            except ValueError:
                pass
            else:
                raise AssertionError(bad)

        def f():
            return 1

        pyadapt.enable()
        f()
        pyadapt.disable()
        assert pyadapt.unit_info(f)["entries"] == 1     # 0: compiled at the first entry
        print("ok")
        """, env={"PYADAPT_COMPILE_AFTER": "7"})
    assert_subprocess_ok(proc, "ok\n")


def test_cli_option(tmp_path):
    script = tmp_path / "prog.py"
    script.write_text(
        "import json, os, pyadapt\n"
        "def once():\n    return 1\n"
        "def often():\n    return 2\n"
        "for _ in range(4):\n    often()\n"
        "print(json.dumps([pyadapt.config()['compile_after'], os.environ.get('PYADAPT_COMPILE_AFTER'),\n"
        "                  once(), pyadapt.unit_info(once) is not None,\n"
        "                  pyadapt.unit_info(often) is not None]))\n")
    out = tmp_path / "stats.json"
    proc = subprocess.run([sys.executable, "-m", "pyadapt", "--compile-after", "3",
                           "--stats-json", str(out), str(script)],
                          capture_output=True, text=True, timeout=120, env=_env())
    assert proc.returncode == 0, proc.stderr
    # the script's own top level runs under pyadapt at once; a function it calls is compiled
    # at its (compile_after + 1)-th entry, as any other: until then the call goes through C
    assert json.loads(proc.stdout) == [3, "3", 1, False, True]
    stats = json.loads(out.read_text())
    assert stats["frames"] >= 2 and "cold" in stats["fallbacks"]
    bad = subprocess.run([sys.executable, "-m", "pyadapt", "--compile-after", "x", str(script)],
                         capture_output=True, text=True, timeout=120, env=_env())
    assert bad.returncode == 2 and "--compile-after" in bad.stderr


# Straight-line module code (its frame runs natively): every call and resumption below enters
# through the hook.  ENABLE is the only line that differs between the two runs.
GENERATOR_AND_ERRORS = """\
import sys, traceback, pyadapt
pyadapt.configure(compile_after=2)

def g():
    yield sys._getframe().f_lineno
    yield sys._getframe().f_lasti
    x = 1
    yield x + 1

def boom(n):
    return 1 // n

def tb(exc):
    return [(f.name, f.lineno) for f in traceback.extract_tb(exc.__traceback__)]

if ENABLE: pyadapt.enable()
r = []
a = g()                     # entry 1 of g: cold, created by CPython's loop
r.append(next(a))           # entry 2: cold, suspended by CPython's loop at its first yield
b = g()                     # entry 3: compiled; b's frame starts in pyadapt
r.append(next(a))           # pyadapt resumes the frame CPython suspended
r.append((a.gi_frame.f_lineno, a.gi_frame.f_lasti))
r.append(next(b))
r.append(list(a))
r.append(list(b))
try:
    list(map(boom, [0]))    # cold
except ZeroDivisionError as exc:
    r.append(tb(exc))
try:
    list(map(boom, [0]))    # cold
except ZeroDivisionError as exc:
    r.append(tb(exc))
try:
    list(map(boom, [0]))    # compiled
except ZeroDivisionError as exc:
    r.append(tb(exc))
if ENABLE: pyadapt.disable()
if ENABLE:
    assert pyadapt.stats()["fallbacks"]["cold"] >= 4, pyadapt.stats()["fallbacks"]
    assert pyadapt.unit_info(g)["entries"] >= 4 and pyadapt.unit_info(boom)["entries"] == 1
print(repr(r))
"""


def test_cold_then_hot_generators_and_tracebacks_same_as_native():
    native = run_python("ENABLE = False\n" + GENERATOR_AND_ERRORS)
    assert_subprocess_ok(native)
    proc = run_python("ENABLE = True\n" + GENERATOR_AND_ERRORS)
    assert_subprocess_ok(proc, native.stdout)


def test_deep_recursion_entered_cold():
    # The first compile_after frames of f run in CPython's loop, each call going through C
    # and the hook; then f is compiled and the rest recurse in pyadapt's loop, off the C stack.
    proc = run_python("""
        import sys, pyadapt
        sys.setrecursionlimit(100_000)
        pyadapt.configure(compile_after=2)

        def f(n):
            if n == 0:
                return 0
            return f(n - 1) + 1

        pyadapt.enable()
        r = list(map(f, [60_000]))
        pyadapt.disable()
        assert r == [60_000], r
        assert pyadapt.stats()["fallbacks"]["cold"] == 2, pyadapt.stats()["fallbacks"]
        print("ok")
        """, timeout=300)
    assert_subprocess_ok(proc, "ok\n")


def test_main_module_body_compiled_at_once(tmp_path):
    """The __main__ module's body is the program pyadapt was asked to run (`-m module`,
    PYADAPT=1 python script.py), and may hold its hot loop at top level: compiled at its
    first entry, not left cold like other module bodies."""
    (tmp_path / "hotmain.py").write_text(
        "import sys, pyadapt\n"
        "from pyadapt import _core\n"
        "t = 0\n"
        "for i in range(1000):\n"
        "    t += i\n"
        "print(t, _core.unit_address(sys._getframe().f_code) != 0,\n"
        "      pyadapt.unit_info(sys._getframe().f_code)['entries'])\n")
    for argv, extra in (([sys.executable, "-m", "pyadapt", "-m", "hotmain"], {}),
                        ([sys.executable, "hotmain.py"], {"PYADAPT": "1"})):
        proc = subprocess.run(argv, cwd=str(tmp_path), env=_env(**extra),
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, (argv, proc.stderr)
        assert proc.stdout == "499500 True 1\n", (argv, proc.stdout, proc.stderr)
