# pyadapt regression: SIGSEGV when another user of the code-object extra slots exists
# Found by: ../shared/repro/co_extra_free_segfault*.py, CPython's test_code
#   CoExtra.test_free_called (issue 10).  CPython sizes co_extra for every registered user and
#   calls every free function for a dying code object, with NULL for the slots never set;
#   pyadapt's free function dereferenced NULL.  pyadapt no longer uses the extra slots at all
#   (its units live in a side table, csrc/pa_units.c), so the other users get the same
#   indices, and their free functions the same calls, as natively.  Registered before and
#   after pyadapt is imported.  3.12 names the two functions PyUnstable_*.
# MODES: adaptive generic
# EXPECTED-STDOUT:
#| indices 0 1
#| first user: freed [100]
#| second user: freed [None, 200]
import ctypes

py = ctypes.pythonapi
freefunc = ctypes.CFUNCTYPE(None, ctypes.c_voidp)
# 3.12 renamed both (PyUnstable_*), with no alias under the old names
unstable = hasattr(py, "PyUnstable_Eval_RequestCodeExtraIndex")
request = py.PyUnstable_Eval_RequestCodeExtraIndex if unstable else py._PyEval_RequestCodeExtraIndex
request.argtypes = (freefunc,)
request.restype = ctypes.c_ssize_t
set_extra = py.PyUnstable_Code_SetExtra if unstable else py._PyCode_SetExtra
set_extra.argtypes = (ctypes.py_object, ctypes.c_ssize_t, ctypes.c_voidp)
set_extra.restype = ctypes.c_int

freed = {"first": [], "second": []}
first = freefunc(lambda p: freed["first"].append(p))
FIRST = request(first)
import pyadapt  # noqa: E402,F401  (natively: just another registered user)

second = freefunc(lambda p: freed["second"].append(p))
SECOND = request(second)
print("indices", FIRST, SECOND)
for which, index, value in (("first", FIRST, 100), ("second", SECOND, 200)):
    f = eval("lambda: 42")
    f()
    set_extra(f.__code__, index, ctypes.c_voidp(value))
    g = eval("lambda: 43")
    g()                       # a code object with slots of other users only
    del f, g
    print(which, "user: freed", freed[which])
