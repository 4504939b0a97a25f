# pyadapt regression: the match statement's look-ups ran as Python frames the program could see.
#   Found by: issue 10's signal work (a SIGALRM handler during `match` was handed frames of
#   pyadapt/_runtime.py: match_class, _match_class_attr, match_keys, _is_type), 2026-12-04.
#   MATCH_CLASS and MATCH_KEYS called Python helpers from pyadapt's loop, so whatever the
#   program ran inside a pattern -- a property or __getattr__ of a class pattern, a
#   metaclass __instancecheck__, a mapping's get() -- had a pyadapt frame as its caller
#   (sys._getframe(1) was `_match_class_attr`), an exception from it lost its own traceback
#   entries (the helper's were cut, and the program's below them with them), and a signal
#   handler could be handed a pyadapt frame.  Natively these are C, inside the loop.
#   Now they are C in pyadapt too (csrc/pa_match.c).
# MODES: adaptive generic w0
# EXPECTED-EXIT: 0
# EXPECTED-STDOUT:
#| property getter called from: classify
#| __getattr__ called from: classify
#| __instancecheck__ called from: classify
#| get() called from: classify
#| traceback of a raising getter: ['<module>', 'classify', 'broken']
#| traceback of a raising get(): ['<module>', 'classify', 'get']
#| results: ['P', 1, 'G', 2, 'M', 3, 'D', 4, 'other']
#| signal handler frames: only the program's
import signal
import sys
import traceback
from collections.abc import Mapping

callers = {}


def note(what):
    callers.setdefault(what, sys._getframe(2).f_code.co_name)


class P:
    __match_args__ = ("x",)

    @property
    def x(self):
        note("property getter")
        return 1


class G:
    __match_args__ = ("y",)

    def __getattr__(self, name):
        note("__getattr__")
        if name == "y":
            return 2
        raise AttributeError(name)


class Meta(type):
    def __instancecheck__(cls, obj):
        note("__instancecheck__")
        return isinstance(obj, int)


class M(metaclass=Meta):
    pass


class D(Mapping):
    def __init__(self, **kw):
        self.d = kw

    def __getitem__(self, k):
        return self.d[k]

    def __iter__(self):
        return iter(self.d)

    def __len__(self):
        return len(self.d)

    def get(self, key, default=None):
        note("get()")
        if key == "bad":
            raise KeyError("get failed")
        return self.d.get(key, default)


class Broken:
    __match_args__ = ("broken",)

    @property
    def broken(self):
        raise LookupError("getter failed")


def classify(s):
    match s:
        case P(v):
            return ["P", v]
        case G(v):
            return ["G", v]
        case M():
            return ["M", s]
        case Broken(v):
            return ["B", v]
        case {"k": v, "bad": w}:
            return ["bad", v]
        case {"k": v}:
            return ["D", v]
        case _:
            return ["other"]


results = []
for s in (P(), G(), 3, D(k=4), "x"):
    results += classify(s)
for what in ("property getter", "__getattr__", "__instancecheck__", "get()"):
    print(what, "called from:", callers[what])
for what, s in (("a raising getter", Broken()), ("a raising get()", D(k=1, bad=2))):
    try:
        classify(s)
    except LookupError as e:
        print(f"traceback of {what}:", [f.name for f in traceback.extract_tb(e.__traceback__)])

# SIGALRM every 100 us while patterns are matched: the handler sees the program's frames only
seen = set()


def handler(signum, frame):
    seen.add(frame.f_code.co_filename)


signal.signal(signal.SIGALRM, handler)
signal.setitimer(signal.ITIMER_REAL, 0.0001, 0.0001)
subjects = [P(), G(), 3, D(k=4), "x"] * 200
for i in range(30):
    for s in subjects:
        classify(s)
signal.setitimer(signal.ITIMER_REAL, 0)
print("results:", results)
print("signal handler frames:", "only the program's" if seen <= {__file__} else sorted(seen))
