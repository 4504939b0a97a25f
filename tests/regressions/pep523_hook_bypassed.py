# pyadapt regression: a second PEP 523 hook installed while pyadapt runs saw no frames.
#   Found by: issue 10 item 6 (../shared/repro/pep523_hook_bypassed.py; CPython's test_capi
#   Test_Pep523API).  pyadapt's loop kept inlining calls, so the recorder never saw them (0
#   recorded, native 200).  Now no inline frames while the slot is not pyadapt's own.
# MODES: adaptive generic w0
# EXPECTED-EXIT: 0
# EXPECTED-STDOUT:
#| func recorded 200 expected 200
#| func2 recorded 200 expected 200
import _testinternalcapi
class C:
    def __getitem__(self, other):
        return None
def func():
    C()[42]
def inner(x=42):
    pass
def func2():
    inner()
def do_test(f, names):
    calls = []
    try:
        for i in range(200):
            if i == 100:
                _testinternalcapi.set_eval_frame_record(calls)
            f()
    finally:
        _testinternalcapi.set_eval_frame_default()
    print(f.__name__, "recorded", len(calls), "expected", 100 * len(names))
do_test(func, ["func", "__getitem__"])
do_test(func2, ["func2", "inner"])
