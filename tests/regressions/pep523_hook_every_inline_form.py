# pyadapt regression: a second PEP 523 hook (test_capi's recorder) set and removed mid-run sees every frame
#   native 3.11 shows it, whatever inline form pyadapt had specialized (variant of
#   pep523_hook_bypassed.py: __init__, property, __getattribute__, __getitem__, calls,
#   generators resumed by FOR_ITER and yield from); pyadapt's hook takes the slot back after.
# MODES: adaptive generic w0
# EXPECTED-EXIT: 0
# EXPECTED-STDOUT:
#| (1500, [('__getattribute__', 20), ('__getitem__', 20), ('__init__', 20), ('defaults', 20), ('delegate', 80), ('gen', 160), ('m', 20), ('p', 20), ('plain', 20), ('work', 20)])
#| (750, [('__getattribute__', 30), ('__getitem__', 30), ('__init__', 30), ('defaults', 30), ('delegate', 120), ('gen', 240), ('m', 30), ('p', 30), ('plain', 30), ('work', 30)])
#| (750, [('__getattribute__', 20), ('__getitem__', 20), ('__init__', 20), ('defaults', 20), ('delegate', 80), ('gen', 160), ('m', 20), ('p', 20), ('plain', 20), ('work', 20)])
# EXPECTED-STDOUT-3.13:
#| (1500, [('__getattribute__', 20), ('__getitem__', 20), ('defaults', 20), ('delegate', 80), ('gen', 160), ('m', 20), ('p', 20), ('plain', 20), ('work', 20)])
#| (750, [('__getattribute__', 30), ('__getitem__', 30), ('defaults', 30), ('delegate', 120), ('gen', 240), ('m', 30), ('p', 30), ('plain', 30), ('work', 30)])
#| (750, [('__getattribute__', 20), ('__getitem__', 20), ('defaults', 20), ('delegate', 80), ('gen', 160), ('m', 20), ('p', 20), ('plain', 20), ('work', 20)])
import sys

import _testinternalcapi
from collections import Counter

# CPython 3.13.0 hands no __init__ frame to a PEP 523 hook once the class call's site is
# specialized (CALL_ALLOC_AND_ENTER_INIT pushes it in its own loop; natively, with no pyadapt,
# the recorder sees no __init__ at all, every other inlined frame it does).  Under pyadapt the
# frames running when the recorder comes go to CPython's loop, whose site may not be
# specialized yet for a call or two: not compared there.
INIT_HIDDEN_FROM_HOOKS = sys.version_info[:2] == (3, 13)

class Init:
    def __init__(self, v):
        self.v = v

class Prop:
    @property
    def p(self):
        return 1

class GetAttribute:
    def __getattribute__(self, name):
        return 2

class GetItem:
    def __getitem__(self, i):
        return i

def plain(x):
    return x

def defaults(x, y=1):
    return x + y

def gen(n):
    for i in range(n):
        yield i

def delegate(n):
    yield from gen(n)

class Method:
    def m(self):
        return 3

def work():
    o, g, s, m = Prop(), GetAttribute(), GetItem(), Method()
    t = 0
    t += Init(1).v
    t += o.p
    t += g.anything
    t += s[4]
    t += plain(5)
    t += defaults(6)
    for x in gen(2):
        t += x
    for x in delegate(2):
        t += x
    t += m.m()
    return t

def run(rounds, hooked_from, hooked_to):
    calls = []
    total = 0
    try:
        for i in range(rounds):
            if i == hooked_from:
                _testinternalcapi.set_eval_frame_record(calls)
            if i == hooked_to:
                _testinternalcapi.set_eval_frame_default()
            total += work()
    finally:
        _testinternalcapi.set_eval_frame_default()
    if INIT_HIDDEN_FROM_HOOKS:
        calls = [c for c in calls if c != "__init__"]
    return total, sorted(Counter(calls).items())

if __name__ == "__main__":      # tests/test_inline_frames.py imports run() and work()
    print(run(60, 20, 40))
    print(run(30, 0, 30))
    print(run(30, 10, 30))
