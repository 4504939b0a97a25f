# pyadapt regression: RecursionError raised by recursion through __init__ lost "while calling a Python object".
#   Found by: issue 10 item 4 (../shared/repro/recursion_message.py).
#   Natively the level that overflows is the C call of the type (_PyObject_MakeTpCall, with that
#   message); under CALL_PY_CLASS only the __init__ frame was charged, with the plain message.
# MODES: adaptive generic w0
# EXPECTED-EXIT: 0
# EXPECTED-STDOUT:
#| class maximum recursion depth exceeded while calling a Python object
#| class maximum recursion depth exceeded while calling a Python object
#| class maximum recursion depth exceeded while calling a Python object
#| prop maximum recursion depth exceeded
#| prop maximum recursion depth exceeded
#| prop maximum recursion depth exceeded
#| plain maximum recursion depth exceeded
#| plain maximum recursion depth exceeded
#| plain maximum recursion depth exceeded
#| getitem maximum recursion depth exceeded
#| getitem maximum recursion depth exceeded
#| getitem maximum recursion depth exceeded
# EXPECTED-STDOUT-3.12:
#| class maximum recursion depth exceeded
#| class maximum recursion depth exceeded
#| class maximum recursion depth exceeded
#| prop maximum recursion depth exceeded
#| prop maximum recursion depth exceeded
#| prop maximum recursion depth exceeded
#| plain maximum recursion depth exceeded
#| plain maximum recursion depth exceeded
#| plain maximum recursion depth exceeded
#| getitem maximum recursion depth exceeded
#| getitem maximum recursion depth exceeded
#| getitem maximum recursion depth exceeded
# EXPECTED-STDOUT-3.13:
#| class maximum recursion depth exceeded
#| class maximum recursion depth exceeded
#| class maximum recursion depth exceeded
#| prop maximum recursion depth exceeded
#| prop maximum recursion depth exceeded
#| prop maximum recursion depth exceeded
#| plain maximum recursion depth exceeded
#| plain maximum recursion depth exceeded
#| plain maximum recursion depth exceeded
#| getitem maximum recursion depth exceeded
#| getitem maximum recursion depth exceeded
#| getitem maximum recursion depth exceeded
import sys
class R:
    def __init__(self, n): R(n + 1)
class P:
    @property
    def p(self): return self.p
def rec(): rec()
class G:
    def __getitem__(self, i): return self[i]
for name, f in [("class", lambda: R(0)), ("prop", lambda: P().p), ("plain", rec), ("getitem", lambda: G()[0])]:
    for k in range(3):
        try: f()
        except RecursionError as e: print(name, e)
