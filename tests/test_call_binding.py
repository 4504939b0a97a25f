"""Calls that bind arguments and calls CPython does not run inline, differentially.

Binding errors: every message a Python call can raise while binding its arguments (3.13 adds
"Did you mean" to an unexpected keyword).  Functions whose vectorcall was replaced
(PyFunction_SetVectorcall, 3.12+; CPython's test_call does it through _testcapi): calling one
runs the replacement, in a site that is generic, specialized before the change, or never
specialized.  Recursion through C: a C function calling back into Python code meets the C
recursion limit under pyadapt as natively (3.13 overflowed the C stack once).
"""
import sys

import pytest

import pyadapt
from harness import DEFAULT_CONFIG, assert_subprocess_ok, check, collect, run_case, run_python


def outcome(op):
    try:
        return op()
    except TypeError as e:
        return "TypeError: %s" % e


def f(alpha, beta=2, *, gamma=3):
    return alpha, beta, gamma


def g(a, b, /, c, *, kw):
    return a, b, c, kw


def h():
    return 0


def case_binding_errors():
    calls = [
        lambda: f(1, bta=2),            # close to beta: 3.13 suggests it
        lambda: f(1, gama=4),           # close to a keyword-only parameter
        lambda: f(1, zzzzzz=4),         # nothing close
        lambda: f(1, 2, alpha=1),       # multiple values
        lambda: f(),                    # missing positional
        lambda: f(1, 2, 3),             # too many positional
        lambda: g(1, b=2, c=3, kw=4),   # positional-only passed by keyword
        lambda: g(1, 2, 3),             # missing keyword-only
        lambda: g(1, 2, 3, kw=4, kx=5),
        lambda: h(x=1),                 # no parameters at all
        lambda: f(1, **{"bet": 2}),
    ]
    return [outcome(c) for _ in range(3) for c in calls]


@pytest.mark.parametrize("case,args,kwargs", collect(globals()))
def test_case(case, args, kwargs):
    run_case(case, args, kwargs)


def test_keyword_suggestion_is_the_native_one():
    """What 3.13 suggests is in the message, under pyadapt as natively (on 3.11 and 3.12: none)."""
    native = outcome(lambda: f(1, bta=2))
    under = pyadapt.run(outcome, lambda: f(1, bta=2))
    assert under == native
    if sys.version_info >= (3, 13):
        assert native.endswith("Did you mean 'beta'?"), native


needs_setvectorcall = pytest.mark.skipif(
    sys.version_info < (3, 12),
    reason="PyFunction_SetVectorcall (and _testcapi.function_setvectorcall) is 3.12+")


def _overridable_loop(n, overridden_at):
    """A loop calling a fresh function whose vectorcall is replaced at iteration overridden_at
    (the call site is warm, and specialized in adaptive mode, before that)."""
    import _testcapi

    def target(x):
        return x + 1

    out = []
    for i in range(n):
        if i == overridden_at:
            _testcapi.function_setvectorcall(target)
        out.append(target(i))
    return out


@needs_setvectorcall
@pytest.mark.parametrize("at", [0, 20, 60])
def test_replaced_vectorcall_runs_the_replacement(at):
    value = check(_overridable_loop, (80, at))
    assert value[at:] == ["overridden"] * (80 - at)


@needs_setvectorcall
def test_replaced_vectorcall_is_not_specialized():
    """A warm site whose callee has its vectorcall replaced from the start never specializes on
    it (it has no version), and keeps running the replacement; the loop ran under pyadapt."""
    import _testcapi

    def target():
        return "plain"

    _testcapi.function_setvectorcall(target)

    def loop():
        out = []
        for _ in range(100):
            out.append(target())
        return out

    before = pyadapt.stats()["frames"]
    pyadapt.configure(warmup=2)
    try:
        assert pyadapt.run(loop) == ["overridden"] * 100
    finally:
        pyadapt.configure(**DEFAULT_CONFIG)
    assert pyadapt.stats()["frames"] > before
    names = [i.opname for i in pyadapt.get_instructions(loop, adaptive=True)]
    assert "FOR_ITER_RANGE" in names, names         # the loop was specialized ...
    assert not [n for n in names if n.startswith("CALL_PY")], names   # ... its call was not


C_RECURSION = """
import operator, sys, pyadapt

def c_recurse(n):
    if n:
        operator.call(c_recurse, n - 1)

def py_recurse(n, m):
    if n:
        py_recurse(n - 1, m)
    else:
        c_py_recurse(m - 1)

def c_py_recurse(m):
    if m:
        operator.call(py_recurse, 1000, m)

def main():
    out = []
    c_recurse(100)
    for func, arg in ((c_recurse, 90_000), (c_py_recurse, 100_000)):
        try:
            func(arg)
            out.append("returned")
        except RecursionError as e:
            out.append(str(e))
    c_py_recurse(90)
    return out

sys.setrecursionlimit(100_000)
native = main()
frames = pyadapt.stats()["frames"]
under = pyadapt.run(main)
assert pyadapt.stats()["frames"] > frames
assert under == native, (under, native)
print(under)
"""


@pytest.mark.skipif(sys.version_info < (3, 12),
                    reason="3.11 has no C recursion limit: natively this overflows the C stack")
def test_recursion_through_c_meets_the_c_limit():
    proc = run_python(C_RECURSION)
    assert_subprocess_ok(proc, "['maximum recursion depth exceeded', 'maximum recursion depth exceeded']\n")
