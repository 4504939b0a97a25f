"""Recursion: fib, mutual recursion, deep recursion, RecursionError and recovery.

What could crash the interpreter if pyadapt recursed on the C stack (thousands of frames, runaway
recursion) runs the harness in a subprocess, so a crash fails one test and not the whole run.
"""


import pytest

from harness import assert_subprocess_ok, collect, entered, run_case, run_python


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def is_even(n):
    return True if n == 0 else is_odd(n - 1)


def is_odd(n):
    return False if n == 0 else is_even(n - 1)


def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)


@entered(fib)
def case_fib():
    return [fib(i) for i in range(15)], fib(18)


@entered(is_even, is_odd)
def case_mutual_recursion():
    return is_even(300), is_odd(301), is_even(7), [is_odd(i) for i in range(10)]


@entered(depth)
def case_moderate_depth_in_process():
    return depth(400)


def case_recursion_through_methods_and_closures():
    class Tree:
        def __init__(self, v, kids=()):
            self.v = v
            self.kids = list(kids)

        def total(self):
            return self.v + sum(k.total() for k in self.kids)

        def height(self):
            return 1 + max((k.height() for k in self.kids), default=0)

    def build(d):
        return Tree(d, [build(d - 1) for _ in range(2)] if d else [])

    def ackermann(m, n):
        if m == 0:
            return n + 1
        if n == 0:
            return ackermann(m - 1, 1)
        return ackermann(m - 1, ackermann(m, n - 1))

    t = build(6)
    return t.total(), t.height(), ackermann(2, 3)


def case_recursive_generator():
    def walk(node):
        if isinstance(node, list):
            for child in node:
                yield from walk(child)
        else:
            yield node

    nested = [1, [2, [3, [4, [5, [6]]]], 7], [[8]]]
    return list(walk(nested))


# --- in subprocesses ------------------------------------------------------------------------------

CHILD_PRELUDE = """
import sys
import harness

def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)

def runaway(n):
    return runaway(n + 1) + 1
"""


def test_deep_recursion_5000_differential():
    proc = run_python(
        CHILD_PRELUDE
        + """
sys.setrecursionlimit(6000)
harness.check(depth, (5000,), also=[depth])
print("ok", depth(5000))
"""
    )
    assert_subprocess_ok(proc, "ok 5000\n")


def test_runaway_recursion_raises_recursion_error_differential():
    proc = run_python(
        CHILD_PRELUDE
        + """
def catch_runaway():
    out = []
    for limit in (300, 2000):
        sys.setrecursionlimit(limit)
        try:
            runaway(0)
        except RecursionError as e:
            out.append(str(e))
        sys.setrecursionlimit(3000)
        out.append(depth(100))
    return out

harness.check(catch_runaway, also=[runaway])
print("ok")
"""
    )
    assert_subprocess_ok(proc, "ok\n")


def test_uncaught_recursion_error_is_recursion_error():
    """Escaping RecursionError: same type and message (the depth reached may differ by a frame)."""
    proc = run_python(
        CHILD_PRELUDE
        + """
import pyadapt
before = pyadapt.stats()["frames"]
try:
    pyadapt.run(runaway, 0)
except RecursionError as e:
    print(type(e).__name__, str(e))
assert pyadapt.stats()["frames"] > before
print(pyadapt.run(depth, 500))
"""
    )
    assert_subprocess_ok(proc, "RecursionError maximum recursion depth exceeded\n500\n")


@pytest.mark.parametrize("case,args,kwargs", collect(globals()))
def test_case(case, args, kwargs):
    run_case(case, args, kwargs)
