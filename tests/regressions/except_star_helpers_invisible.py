# pyadapt regression: the except* machinery ran as Python frames the program could see.
#   Found by: issue 10 ("the compiler/runtime leaves no trace a program can see"), after the
#   match statement's look-ups were moved to C (match_helpers_invisible.py), 2026-12-04.
#   CHECK_EG_MATCH and PREP_RERAISE_STAR called Python helpers of pyadapt/_runtime.py
#   (exception_group_match, prep_reraise_star, through _check_eg_match), so what the program
#   ran inside the machinery -- split() and derive() of an exception group subclass (and
#   what they call) -- had a pyadapt frame as its caller (sys._getframe(1) was
#   `exception_group_match` or `_projection`), an exception raised in them lost its own
#   traceback entries (['<module>', 'handle'] only), and a signal handler could be handed
#   frames of pyadapt/_runtime.py and pyadapt/__init__.py.  Natively these
#   are C.  Now they are C in pyadapt too (csrc/pa_excgroup.c).
# MODES: adaptive generic w0
# EXPECTED-EXIT: 0
# EXPECTED-STDOUT:
#| split() called from: ['handle']
#| derive() called from: ['handle', 'split']
#| traceback of a raising split(): ['<module>', 'handle', 'split']
#| traceback of a raising derive(): ['<module>', 'handle', 'derive']
#| results: ['V', 'T', "raised:MyGroup:['KeyError']", 'V', 'T', "raised:MyGroup:['ValueError']"]
#| signal handler frames: only the program's
import signal
import sys
import traceback

callers = {}


def note(what):
    callers.setdefault(what, set()).add(sys._getframe(2).f_code.co_name)


class MyGroup(ExceptionGroup):
    fail = None

    def split(self, condition):
        note("split()")
        if MyGroup.fail == "split":
            raise LookupError("split failed")
        fail, MyGroup.fail = MyGroup.fail, None   # derive() fails at the re-raise only
        try:
            return super().split(condition)
        finally:
            MyGroup.fail = fail

    def derive(self, excs):
        note("derive()")
        if MyGroup.fail == "derive":
            raise LookupError("derive failed")
        return MyGroup(self.message, excs)


def handle(eg, reraise):
    out = []
    try:
        try:
            raise eg
        except* ValueError:
            out.append("V")
            if reraise:
                raise
        except* TypeError:
            out.append("T")
    except MyGroup as g:
        out.append("raised:%s:%s" % (type(g).__name__, [type(x).__name__ for x in g.exceptions]))
    return out


def make():
    return MyGroup("g", [ValueError(1), TypeError(2), KeyError(3)])


def make2():
    return MyGroup("g", [ValueError(1), TypeError(2)])


results = handle(make(), False) + handle(make2(), True)
for what in ("split()", "derive()"):
    print(what, "called from:", sorted(callers[what]))
for what in ("split", "derive"):
    MyGroup.fail = what
    try:
        handle(make(), False)
    except LookupError as e:
        print(f"traceback of a raising {what}():",
              [f.name for f in traceback.extract_tb(e.__traceback__)])
    MyGroup.fail = None

# SIGALRM every 100 us while groups are split and re-raised: the handler sees the program's
# frames only
seen = set()


def handler(signum, frame):
    seen.add(frame.f_code.co_filename)


signal.signal(signal.SIGALRM, handler)
signal.setitimer(signal.ITIMER_REAL, 0.0001, 0.0001)
for i in range(3000):
    handle(make(), False)
    handle(make2(), True)
signal.setitimer(signal.ITIMER_REAL, 0)
print("results:", results)
print("signal handler frames:", "only the program's" if seen <= {__file__} else sorted(seen))
