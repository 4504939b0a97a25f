# pyadapt regression (minor): a program under `python -m pyadapt` reaches a smaller recursion
#   depth than natively, and sees pyadapt's own frames below its __main__ module frame.
# Found by: hand probing while triaging tools/fuzz.py results.
# Native (`python3 FILE`): the module frame has no f_back, inspect.stack() inside a function has
#   2 entries, and recursion stops at 998 frames under the default limit of 1000.
# Under `python3 -m pyadapt FILE`: the module frame's f_back chain shows 4 more frames
#   (pyadapt/__main__.py main and <module>, runpy's _run_code and _run_module_as_main), and
#   RecursionError comes 6 frames earlier (992).  Even pyadapt.run(f) from native code costs one
#   level: pyadapt.run(depth) gives 997 where depth() gives 998 (one extra recursion-count per
#   entry into pyadapt?).  Code that recurses close to the limit, or counts frames
#   (inspect.stack(), traceback.extract_stack(), sys._getframe(n)), sees the difference.
# MODES: adaptive generic
# EXPECTED-EXIT: 0
# EXPECTED-STDOUT:
#| module f_back is None: True
#| inspect.stack() in a function: 2
#| recursion depth reached: 998
import inspect
import sys


def depth():
    n = 0

    def r():
        nonlocal n
        n += 1
        r()

    try:
        r()
    except RecursionError:
        return n


def stack():
    return len(inspect.stack())


print("module f_back is None:", sys._getframe().f_back is None)
print("inspect.stack() in a function:", stack())
print("recursion depth reached:", depth())
