"""pyadapt's public API: run, jit, stats/reset_stats, unit_info, enable/disable, tracing fallback,
deep recursion (in subprocesses, so a crash fails a test instead of killing pytest)."""

import functools
import sys
import types

import pytest

import pyadapt
from harness import assert_subprocess_ok, code_of, differential, run_python


def entries(obj):
    info = pyadapt.unit_info(obj)
    return 0 if info is None else info["entries"]


def frames():
    return pyadapt.stats()["frames"]


def fresh_function(src, name):
    """A function whose code object pyadapt has never seen."""
    ns = {}
    exec(src, ns)
    return ns[name]


# --- run --------------------------------------------------------------------------------------------


def test_run_passes_args_and_kwargs():
    def f(a, b, /, c, *rest, d=4, **kw):
        return a, b, c, rest, d, kw

    assert pyadapt.run(f, 1, 2, 3) == (1, 2, 3, (), 4, {})
    assert pyadapt.run(f, 1, 2, 3, 5, 6, d=7, e=8) == (1, 2, 3, (5, 6), 7, {"e": 8})
    assert pyadapt.run(f, *range(3), **{"x": 1}) == (0, 1, 2, (), 4, {"x": 1})


def test_run_func_is_positional_only():
    """A keyword named `func` goes to the called function, not to run()."""

    def g(func, self=None):
        return func * 2, self

    assert pyadapt.run(g, func=21, self="s") == (42, "s")


def test_run_returns_and_raises_like_a_call():
    def ok():
        return {"k": [1, 2]}

    def boom():
        raise LookupError("boom")

    assert pyadapt.run(ok) == {"k": [1, 2]}
    with pytest.raises(LookupError, match="boom"):
        pyadapt.run(boom)


def test_run_proves_execution():
    f = fresh_function("def f(n):\n    t = 0\n    for i in range(n):\n        t += i\n    return t\n", "f")
    assert pyadapt.unit_info(f) is None, "unit_info must be None for code pyadapt never saw"
    before_stats = pyadapt.stats()
    assert pyadapt.run(f, 100) == 4950
    info = pyadapt.unit_info(f)
    assert info is not None and info["entries"] >= 1, info
    assert info["rejected"] is None, info
    after = pyadapt.stats()
    assert after["frames"] > before_stats["frames"]
    # the loop ran in pyadapt's loop: its specialized range iteration counted its hits
    hits = after["specialized"]["FOR_ITER_RANGE"]["hits"]
    assert hits - before_stats["specialized"].get("FOR_ITER_RANGE", {"hits": 0})["hits"] >= 90
    if after["instructions"] is not None:    # a build with PYADAPT_COUNT_INSTRUCTIONS=1
        assert after["instructions"] - before_stats["instructions"] >= 100, (before_stats, after)
    assert after["compiled"] > before_stats["compiled"]


def test_unit_info_accepts_function_or_code():
    f = fresh_function("def f():\n    return 1\n", "f")
    pyadapt.run(f)
    by_func = pyadapt.unit_info(f)
    by_code = pyadapt.unit_info(f.__code__)
    assert by_func is not None and by_code is not None
    assert by_func["entries"] == by_code["entries"] >= 1
    assert set(by_func) >= {"entries", "rejected"}


def test_compiled_once_per_code_object():
    f = fresh_function("def f(x):\n    return x + 1\n", "f")
    c0 = pyadapt.stats()["compiled"]
    pyadapt.run(f, 1)
    c1 = pyadapt.stats()["compiled"]
    for i in range(5):
        pyadapt.run(f, i)
    c2 = pyadapt.stats()["compiled"]
    assert c1 > c0
    assert c2 == c1, "a code object seen before must not be compiled again"
    assert entries(f) == 6


def test_run_accepts_other_callables():
    class K:
        def __init__(self, v):
            self.v = v

        def method(self, k):
            return self.v * k

        def __call__(self, x):
            return x - self.v

    def key(v):
        return -v

    k = K(3)
    e_init, e_method, e_call, e_key = entries(K.__init__), entries(K.method), entries(K.__call__), entries(key)
    assert pyadapt.run(K, 5).v == 5
    assert pyadapt.run(k.method, 2) == 6
    assert pyadapt.run(k, 10) == 7
    assert pyadapt.run(functools.partial(k.method, 4)) == 12
    assert pyadapt.run(sorted, [1, 3, 2], key=key) == [3, 2, 1]
    assert entries(K.__init__) > e_init
    assert entries(K.method) >= e_method + 2
    assert entries(K.__call__) > e_call
    assert entries(key) >= e_key + 3, "frames reached from a builtin run under pyadapt too"


def test_run_rejects_non_callables():
    for bad in (42, "f", None):
        with pytest.raises(TypeError, match=r"(?i)callable|function"):
            pyadapt.run(bad)
    with pytest.raises(TypeError):
        pyadapt.run()


def test_run_nested_in_run():
    def inner(x):
        return pyadapt.run(lambda: x * 2)

    def outer():
        return [inner(i) for i in range(3)]

    assert pyadapt.run(outer) == [0, 2, 4]


def test_run_inside_except_block_sets_context():
    """The thread's handled-exception state is visible to code pyadapt runs."""

    def raiser():
        raise KeyError("inner")

    def run_in_handler(call):
        try:
            raise ValueError("outer")
        except ValueError:
            try:
                call(raiser)
            except KeyError as e:
                return type(e.__context__).__name__, str(e.__context__)

    assert run_in_handler(lambda f: f()) == run_in_handler(pyadapt.run) == ("ValueError", "outer")


def test_sys_exc_info_inside_run_from_handler():
    def peek():
        return sys.exc_info()[0]

    try:
        raise IndexError
    except IndexError:
        assert pyadapt.run(peek) is IndexError


# --- jit --------------------------------------------------------------------------------------------


def _check_metadata(original_name, original_qualname, original_doc, original_module, jitted, original):
    assert jitted.__name__ == original_name
    assert jitted.__qualname__ == original_qualname
    assert jitted.__doc__ == original_doc
    assert jitted.__module__ == original_module
    assert jitted is original or getattr(jitted, "__wrapped__", None) is original


def test_jit_without_parentheses():
    def plain(a, b=2):
        """Doc of plain."""
        return a * b

    meta = (plain.__name__, plain.__qualname__, plain.__doc__, plain.__module__)
    jitted = pyadapt.jit(plain)
    _check_metadata(*meta, jitted, plain)
    e0, f0 = entries(plain), frames()
    assert jitted(4) == 8  # called from native code
    assert entries(plain) > e0 and frames() > f0


def test_jit_with_parentheses_and_decorator_syntax():
    @pyadapt.jit()
    def with_parens(x):
        """Doc."""
        return x + 1

    @pyadapt.jit
    def without(x):
        return x - 1

    assert with_parens.__name__ == "with_parens" and with_parens.__doc__ == "Doc."
    assert with_parens.__qualname__.endswith("test_jit_with_parentheses_and_decorator_syntax.<locals>.with_parens")
    assert with_parens.__module__ == __name__
    for fn, expected in ((with_parens, 11), (without, 9)):
        e0 = entries(code_of(fn))
        assert fn(10) == expected
        assert entries(code_of(fn)) > e0


def test_jit_keeps_signature_and_attributes():
    import inspect

    def f(a, /, b, *, c=3) -> int:
        return a + b + c

    f.custom = "attr"
    j = pyadapt.jit(f)
    assert str(inspect.signature(j)) == str(inspect.signature(f))
    assert getattr(j, "custom", None) == "attr"
    assert j(1, 2) == 6


def test_jit_nested_functions_run_under_pyadapt():
    @pyadapt.jit
    def make_adder(n):
        def add(x):
            return x + n

        return add

    add = make_adder(5)
    e0 = entries(add)
    assert add(1) == 6  # called from native code, but nested in a jitted function
    assert entries(add) > e0


def test_jit_generator_resumed_from_native_code():
    @pyadapt.jit
    def gen(n):
        total = 0
        for i in range(n):
            got = yield i
            total += got or 0
        return total

    g = gen(3)
    counts = [entries(code_of(gen))]
    values = [next(g)]
    counts.append(entries(code_of(gen)))
    values.append(g.send(10))
    counts.append(entries(code_of(gen)))
    values.append(g.send(20))
    counts.append(entries(code_of(gen)))
    with pytest.raises(StopIteration) as info:
        g.send(30)
    counts.append(entries(code_of(gen)))
    assert values == [0, 1, 2] and info.value.value == 60
    assert all(b > a for a, b in zip(counts, counts[1:])), f"every resumption must enter pyadapt: {counts}"


def test_jit_generator_throw_and_close_from_native():
    log = []

    @pyadapt.jit
    def gen():
        try:
            yield 1
        except KeyError:
            log.append("caught")
            yield 2
        finally:
            log.append("finally")

    g = gen()
    next(g)
    e0 = entries(code_of(gen))
    assert g.throw(KeyError()) == 2
    g.close()
    assert log == ["caught", "finally"]
    assert entries(code_of(gen)) >= e0 + 2


def test_jit_coroutine_under_asyncio():
    import asyncio

    @pyadapt.jit
    async def work(n):
        total = 0
        for i in range(n):
            await asyncio.sleep(0)
            total += i
        return total

    e0 = entries(code_of(work))
    assert asyncio.run(work(5)) == 10
    assert entries(code_of(work)) >= e0 + 5


@pytest.mark.parametrize("bad", [len, int, 42, "x", types.SimpleNamespace(), functools.partial(len)], ids=["len", "int", "42", "str", "obj", "partial"])
def test_jit_rejects_non_functions(bad):
    with pytest.raises(TypeError, match=r"(?i)function"):
        pyadapt.jit(bad)


def test_jit_rejects_builtin_in_decorator_form():
    with pytest.raises(TypeError):
        pyadapt.jit()(len)


# --- stats --------------------------------------------------------------------------------------------


def test_stats_keys_and_types():
    s = pyadapt.stats()
    for key in ("frames", "inlined_calls", "compiled"):
        assert isinstance(s[key], int) and s[key] >= 0, (key, s.get(key))
    # counted only by a build with PYADAPT_COUNT_INSTRUCTIONS=1
    from pyadapt import _pyadapt
    if _pyadapt.lib.pa_counts_instructions:
        assert isinstance(s["instructions"], int) and s["instructions"] >= 0, s["instructions"]
    else:
        assert s["instructions"] is None, s["instructions"]
    assert isinstance(s["fallbacks"], dict)
    for reason in ("tracing", "compile_failed", "unsupported", "foreign_eval_frame"):
        assert reason in s["fallbacks"], s["fallbacks"]
    assert all(isinstance(k, str) and isinstance(v, int) for k, v in s["fallbacks"].items())


def test_stats_is_a_snapshot():
    s = pyadapt.stats()
    pyadapt.run(lambda: sum(range(10)))
    s["frames"] = -1
    assert pyadapt.stats()["frames"] != -1


def test_reset_stats():
    pyadapt.run(lambda: [i for i in range(10)])
    assert pyadapt.stats()["frames"] > 0
    pyadapt.reset_stats()
    s = pyadapt.stats()
    assert s["instructions"] in (0, None) and s["frames"] == 0 and s["inlined_calls"] == 0 and s["compiled"] == 0, s
    assert all(v == 0 for v in s["fallbacks"].values()), s
    pyadapt.run(lambda: [i for i in range(10)])
    assert pyadapt.stats()["frames"] > 0


def test_inlined_calls_counted():
    fib = fresh_function("def fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n", "fib")
    before = pyadapt.stats()
    assert pyadapt.run(fib, 15) == 610
    after = pyadapt.stats()
    calls = 1973  # frames of fib(15); all but the first are Python-to-Python calls
    assert after["inlined_calls"] - before["inlined_calls"] >= calls - 1, (before, after)
    assert after["frames"] - before["frames"] >= calls, (before, after)
    assert entries(fib) >= calls


# --- tracing falls back to the native loop ------------------------------------------------------------


def test_settrace_falls_back_and_stays_correct():
    def work(n):
        return sum(i * i for i in range(n))

    events = []

    def tracer(frame, event, arg):
        if frame.f_code is work.__code__:
            events.append(event)
        return tracer

    before = pyadapt.stats()["fallbacks"].get("tracing", 0)
    old = sys.gettrace()
    sys.settrace(tracer)
    try:
        result = pyadapt.run(work, 10)
    finally:
        sys.settrace(old)
    after = pyadapt.stats()["fallbacks"].get("tracing", 0)
    assert result == 285
    assert after > before, "running while sys.settrace is active must count a 'tracing' fallback"
    assert "call" in events and "line" in events and "return" in events, "the tracer must still see the frame"
    # and once tracing stops, pyadapt runs the same code again
    e0 = entries(work)
    assert pyadapt.run(work, 10) == 285
    assert entries(work) > e0


def test_setprofile_falls_back_and_stays_correct():
    def work(n):
        return [str(i) for i in range(n)]

    seen = []

    def profiler(frame, event, arg):
        if event == "call":
            seen.append(frame.f_code.co_name)

    before = sum(pyadapt.stats()["fallbacks"].values())
    sys.setprofile(profiler)
    try:
        result = pyadapt.run(work, 3)
    finally:
        sys.setprofile(None)
    assert result == ["0", "1", "2"]
    assert "work" in seen
    assert sum(pyadapt.stats()["fallbacks"].values()) > before


# --- whole process mode, threads, deep recursion: in subprocesses -------------------------------------


def test_enable_disable_is_enabled():
    proc = run_python(
        """
import pyadapt
pyadapt.configure(compile_after=0)   # f's one call is compiled, not left to CPython as cold

def f(n):
    return n * 2

assert pyadapt.is_enabled() is False
pyadapt.enable()
assert pyadapt.is_enabled() is True
e0 = (pyadapt.unit_info(f) or {"entries": 0})["entries"]
assert f(21) == 42           # a plain call: whole-process mode runs it under pyadapt
e1 = pyadapt.unit_info(f)["entries"]
assert e1 > e0, (e0, e1)
pyadapt.disable()
assert pyadapt.is_enabled() is False
assert f(1) == 2
e2 = pyadapt.unit_info(f)["entries"]
assert e2 == e1, ("ran under pyadapt after disable()", e1, e2)
print("ok")
"""
    )
    assert_subprocess_ok(proc, "ok\n")


def test_threads_running_pyadapt_concurrently():
    proc = run_python(
        """
import threading
import pyadapt

def work(k):
    total = 0
    for i in range(20000):
        total += (i * k) % 7
    return total

results = {}

def worker(k):
    results[k] = pyadapt.run(work, k)

threads = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
for t in threads:
    t.start()
for t in threads:
    t.join()
assert results == {k: work(k) for k in range(8)}, results
print("ok")
"""
    )
    assert_subprocess_ok(proc, "ok\n")


def test_deep_recursion_60000_and_recursion_error():
    proc = run_python(
        """
import sys
import pyadapt

sys.setrecursionlimit(100_000)

def down(n):
    if n == 0:
        return 0
    return down(n - 1) + 1

before = pyadapt.stats()
print(pyadapt.run(down, 60_000))
after = pyadapt.stats()
print("inlined", after["inlined_calls"] - before["inlined_calls"] >= 60_000)
try:
    pyadapt.run(down, 150_000)
except RecursionError as e:
    # Where the limit trips decides the suffix: quickened code (native, or pyadapt's
    # adaptive mode) trips at a frame start (no suffix); generic code may trip inside
    # the comparison (" in comparison"), as unquickened CPython does.
    print("RecursionError", str(e).replace(" in comparison", ""))
print(pyadapt.run(down, 1000))   # still usable afterwards
print(down(1000))
"""
    )
    assert_subprocess_ok(proc, "60000\ninlined True\nRecursionError maximum recursion depth exceeded\n1000\n1000\n")


def test_deep_recursion_in_jitted_function_called_natively():
    proc = run_python(
        """
import sys
import pyadapt

sys.setrecursionlimit(100_000)

@pyadapt.jit
def down(n):
    return 0 if n == 0 else down(n - 1) + 1

print(down(60_000))
"""
    )
    assert_subprocess_ok(proc, "60000\n")


def test_cli_smoke(tmp_path):
    script = tmp_path / "script.py"
    script.write_text("import sys\nprint('args', sys.argv[1:])\nprint(sum(i * i for i in range(100)))\n")
    import subprocess

    proc = subprocess.run([sys.executable, "-m", "pyadapt", str(script), "a", "b"], capture_output=True, text=True, timeout=60, env=_env_with_pyadapt())
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "args ['a', 'b']\n328350\n"


def _env_with_pyadapt():
    import os

    from harness import PYADAPT_DIR

    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (os.path.dirname(PYADAPT_DIR), env.get("PYTHONPATH", "")) if p)
    return env


# --- the harness's own contract: a differential case is proved to have run under pyadapt ---------------


def test_differential_smoke():
    def f(n):
        return [i * 1.5 for i in range(n)], {"n": n}

    assert differential(f, 5) == ([0.0, 1.5, 3.0, 4.5, 6.0], {"n": 5})


# --- import cost ------------------------------------------------------------------------------

def test_import_pyadapt_loads_only_the_core():
    """What only introspection and the report need is imported at first use (import pyadapt
    took 15 ms, two thirds of it the report's imports); the lazy names work as attributes,
    with from-imports and in dir()."""
    import subprocess

    probe = (
        "import sys; before = set(sys.modules); import pyadapt\n"
        "new = sorted(set(sys.modules) - before)\n"
        "print([m for m in new if not m.startswith('pyadapt') and m not in "
        "('_cffi_backend', 'opcode', '_opcode', '_opcode_metadata', '_xxsubinterpreters', "
        "'_interpreters', 'types') + (('gc',) if sys.version_info >= (3, 12) else ())])\n"
        # 3.13's opcode module imports _opcode_metadata; on 3.12+ the core looks up
        # gc.collect when it loads, for the collections the eval breaker runs
        # (docs/architecture.md, "CPython 3.12"); _interpreters is 3.13's _xxsubinterpreters
        "print([m for m in new if m.startswith('pyadapt')])\n"
        "print(all(n in dir(pyadapt) for n in pyadapt.__all__))\n"
        "from pyadapt import stats, report\n"
        "print(callable(stats), callable(report), pyadapt.dis is pyadapt._introspect.dis)\n"
    )
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "[]",
        str(sorted(["pyadapt", "pyadapt._compiler", "pyadapt._pyadapt", "pyadapt._pyadapt.lib",
                    "pyadapt._versions", "pyadapt._decode",
                    "pyadapt._decode%d%d" % sys.version_info[:2]]   # this version's decoder
                   + (["pyadapt._decode312"] if sys.version_info >= (3, 13) else []))),  # 3.13's builds on 3.12's
        "True",
        "True True True",
    ]
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        pyadapt.nothing_here


def test_lazy_attributes_are_imported_natively():
    # Under pyadapt, the first pyadapt.stats() imports pyadapt._introspect (and dis): natively,
    # so that the program's statistics and report do not show those modules compiled.
    import subprocess

    probe = ("import pyadapt\n"
             "pyadapt.stats(); pyadapt.dis\n"
             "from pyadapt import _pyadapt\n"
             "print(sorted(c.co_filename for c in _pyadapt._compiled_codes()"
             " if c.co_name == '<module>'), pyadapt.is_enabled())\n")
    proc = subprocess.run([sys.executable, "-m", "pyadapt", "-c", probe], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "['<string>'] True\n"
