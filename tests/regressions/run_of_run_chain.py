# pyadapt regression: run(run, run, ..., f) overflowed the C stack (SIGSEGV).
#   Found by: review of the fidelity branch (2026-12-04): pyadapt.run(*[pyadapt.run] *
#   200_000, f) died with SIGSEGV natively and under python -m pyadapt, where its Python
#   equivalent (def run(f, *a): return f(*a)) raises RecursionError.
#   Cause: run() takes no recursion level of its own (so that run(f) is as deep as f()), and
#   a chain of runs reaches run's vectorcall again and again with nothing else on the way
#   taking one.  Now a run() called by run() takes a level, as that Python function would.
# MODES: adaptive generic w0
# EXPECTED-EXIT: 0
# EXPECTED-STDOUT:
#| chain: RecursionError maximum recursion depth exceeded while calling a Python object
#| short chain: 1
#| run(run, f) depth: one level more than run(f): True
# EXPECTED-STDOUT-3.12:
#| chain: RecursionError maximum recursion depth exceeded while calling a Python object
#| short chain: 1
#| run(run, f) depth: one level more than run(f): False
# EXPECTED-STDOUT-3.13:
#| chain: RecursionError maximum recursion depth exceeded while calling a Python object
#| short chain: 1
#| run(run, f) depth: one level more than run(f): False
import sys

import pyadapt


def f():
    return 1


try:
    pyadapt.run(*[pyadapt.run] * 200_000, f)
    print("chain: no error")
except RecursionError as e:
    print("chain: RecursionError", e)

print("short chain:", pyadapt.run(pyadapt.run, pyadapt.run, f))

depth = 0


def down(n):
    global depth
    depth = n
    down(n + 1)


def deepest(*runs):
    try:
        pyadapt.run(*runs, down, 0)
    except RecursionError:
        pass
    return depth


print("run(run, f) depth: one level more than run(f):",
      deepest(pyadapt.run) == deepest() - 1)
