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
import _testinternalcapi

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
            print(f.__name__, f(calls), calls)
        finally:
            _testinternalcapi.set_eval_frame_default()
