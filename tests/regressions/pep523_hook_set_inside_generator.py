# pyadapt regression: a second PEP 523 hook set and removed by a generator while FOR_ITER_GEN / SEND_GEN run
#   it inline (variant of pep523_hook_bypassed.py): from the next resumption on, the recorder
#   sees the generator's frames and the __init__ they call, as natively, and the generator
#   frame pyadapt ran is resumed through the recorder by CPython's loop.
# MODES: adaptive generic w0
# EXPECTED-EXIT: 0
# EXPECTED-STDOUT:
#| consume 190 ['__init__', 'gen', '__init__', 'gen', '__init__', 'gen', '__init__', 'gen', '__init__', 'gen']
#| consume 190 ['__init__', 'gen', '__init__', 'gen', '__init__', 'gen', '__init__', 'gen', '__init__', 'gen']
#| consume 190 ['__init__', 'gen', '__init__', 'gen', '__init__', 'gen', '__init__', 'gen', '__init__', 'gen']
#| nested 190 ['__init__', 'inner', 'gen', '__init__', 'inner', 'gen', '__init__', 'inner', 'gen', '__init__', 'inner', 'gen', '__init__', 'inner', 'gen']
#| nested 190 ['__init__', 'inner', 'gen', '__init__', 'inner', 'gen', '__init__', 'inner', 'gen', '__init__', 'inner', 'gen', '__init__', 'inner', 'gen']
#| nested 190 ['__init__', 'inner', 'gen', '__init__', 'inner', 'gen', '__init__', 'inner', 'gen', '__init__', 'inner', 'gen', '__init__', 'inner', 'gen']
# EXPECTED-STDOUT-3.13:
#| consume 190 ['gen', 'gen', 'gen', 'gen', 'gen']
#| consume 190 ['gen', 'gen', 'gen', 'gen', 'gen']
#| consume 190 ['gen', 'gen', 'gen', 'gen', 'gen']
#| nested 190 ['inner', 'gen', 'inner', 'gen', 'inner', 'gen', 'inner', 'gen', 'inner', 'gen']
#| nested 190 ['inner', 'gen', 'inner', 'gen', 'inner', 'gen', 'inner', 'gen', 'inner', 'gen']
#| nested 190 ['inner', 'gen', 'inner', 'gen', 'inner', 'gen', 'inner', 'gen', 'inner', 'gen']
import sys

import _testinternalcapi

# CPython 3.13.0 hands no __init__ frame to a PEP 523 hook once the class call's site is
# specialized (CALL_ALLOC_AND_ENTER_INIT pushes it in its own loop; natively, with no pyadapt,
# the recorder sees no __init__ at all, every other inlined frame it does).  Under pyadapt the
# frames running when the recorder comes go to CPython's loop, whose site may not be
# specialized yet for a call or two: not compared there.
INIT_HIDDEN_FROM_HOOKS = sys.version_info[:2] == (3, 13)

class Box:
    def __init__(self, v):
        self.v = v

def gen(calls, n, start):
    for i in range(n):
        if i == start:
            _testinternalcapi.set_eval_frame_record(calls)
        if i == start + 5:
            _testinternalcapi.set_eval_frame_default()
        yield Box(i).v

def consume(calls):
    total = 0
    for x in gen(calls, 20, 7):
        total += x
    return total

def nested(calls):
    def inner():
        yield from gen(calls, 20, 3)
    return sum(inner())

for f in (consume, nested):
    for k in range(3):
        calls = []
        try:
            total = f(calls)
            if INIT_HIDDEN_FROM_HOOKS:
                calls = [c for c in calls if c != "__init__"]
            print(f.__name__, total, calls)
        finally:
            _testinternalcapi.set_eval_frame_default()
