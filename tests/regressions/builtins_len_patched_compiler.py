# pyadapt regression: replacing builtins.len breaks pyadapt's compiler
# Found by: tools/regrtest.py, test_dynamic.RebindBuiltinsTests.test_modify_builtins_from_leaf_function
#   (which then aborts the whole test_dynamic module: 3 tests missing).
# Native: prints 4 and exits 0.
# Under pyadapt (adaptive and generic): the lambda, compiled on its first call while builtins.len is
#   the lambda itself, is translated by pyadapt's compiler (Python code) that calls len() and gets
#   4: its unit is garbage, and running it raises SystemError ("no locals found when setting up
#   annotations", "unknown opcode 209", "bad argument to internal function", ...) or TypeError,
#   at line -1.  The compiler must not use the user's (mutable) builtins.
# MODES: adaptive generic
# EXPECTED-EXIT: 0
# EXPECTED-STDOUT:
#| 4
#| [7, 4]
import builtins

real_len = builtins.len


def foo():
    builtins.len = lambda x: 4
    return len(range(7))


def bar():
    builtins.len = lambda x: 4


def leaf(modifier):
    l = []
    l.append(len(range(7)))
    modifier()
    l.append(len(range(7)))
    return l


try:
    print(foo())
finally:
    builtins.len = real_len
try:
    print(leaf(bar))
finally:
    builtins.len = real_len
