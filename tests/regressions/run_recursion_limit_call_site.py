# pyadapt regression: pyadapt.run(f) went one frame deeper than f() once its call site specialized.
#   Found by: a helper's session (issue 10, "pyadapt.run at the recursion limit is one frame
#   off"); reproduced 2026-12-04: through a property and a generator, RecursionError came at
#   depth 997/998 under run() against 996/997 for the same call written f(); plain recursion
#   and __init__ matched only by the luck of the order the cases ran in.
#   Cause: run() gave back "the level its own call took", but whether a call of a builtin
#   takes one depends on the caller's call site: CPython's generic call path takes it, its
#   specialized PRECALL_BUILTIN_FAST_WITH_KEYWORDS (after about 8 calls from one site) and
#   pyadapt's CALL_BUILTIN_FAST_WITH_KEYWORDS (after its warmup) do not.  Now run() is reached
#   through its own vectorcall function, by a call that no specializer touches, and takes no
#   level: run(f) costs what f() costs, from any site, specialized or not.
# Run natively, pyadapt.run is called from CPython's loop (its site specialized by CPython);
# under python -m pyadapt, from pyadapt's loop (the site specialized by pyadapt, or generic).
# MODES: adaptive generic w0 w2
# EXPECTED-EXIT: 0
# EXPECTED-STDOUT:
#| plain: run(f) as deep as f() from one site, 12 calls each: True
#| init: run(f) as deep as f() from one site, 12 calls each: True
#| property: run(f) as deep as f() from one site, 12 calls each: True
#| generator: run(f) as deep as f() from one site, 12 calls each: True
#| nested: run(f) as deep as f() from one site, 12 calls each: True
#| partial: run(f) as deep as f() from one site, 12 calls each: True
#| keywords: run(f) as deep as f() from one site, 12 calls each: True
#| message under run: maximum recursion depth exceeded
import functools

import pyadapt

depth = 0


def plain(n):
    global depth
    depth = n
    plain(n + 1)


class Init:
    def __init__(self, n):
        global depth
        depth = n
        Init(n + 1)


class Prop:
    def __init__(self, n):
        self.n = n

    @property
    def down(self):
        global depth
        depth = self.n
        return Prop(self.n + 1).down


def gen(n):
    global depth
    depth = n
    yield from gen(n + 1)


def nested(n):
    # run() called from code that itself runs under run(): the inner site specializes too
    global depth
    depth = n
    return pyadapt.run(nested, n + 1)


def nested_native(n):
    global depth
    depth = n
    return nested_native(n + 1)


def measure(kind, n=0):
    global depth
    depth = 0
    try:
        if kind == "plain":
            plain(n)
        elif kind == "init":
            Init(n)
        elif kind == "property":
            Prop(n).down
        elif kind == "generator":
            list(gen(n))
        elif kind == "nested":
            nested(n)
        elif kind == "nested_native":
            nested_native(n)
    except RecursionError as e:
        return depth, str(e)
    return None


for kind in ("plain", "init", "property", "generator", "nested", "partial", "keywords"):
    if kind == "nested":
        native = [measure("nested_native") for _ in range(12)]
        under = [measure("nested") for _ in range(12)]
    elif kind == "partial":
        call = functools.partial(pyadapt.run, measure, "plain")
        native = [measure("plain") for _ in range(12)]
        under = [call() for _ in range(12)]
    elif kind == "keywords":
        native = [measure("plain", n=0) for _ in range(12)]
        under = [pyadapt.run(measure, "plain", n=0) for _ in range(12)]
    else:
        # 3.13 specializes Init(n) at its second call, and then it costs two levels (a shim
        # frame's and __init__'s): both sites warm first (pyadapt's default warmup is 2)
        for _ in range(3):
            measure(kind)
            pyadapt.run(measure, kind)
        native = [measure(kind) for _ in range(12)]
        under = [pyadapt.run(measure, kind) for _ in range(12)]
    ok = native == under and len(set(native)) == 1
    print(f"{kind}: run(f) as deep as f() from one site, 12 calls each: {ok}")
    if not ok:
        print("   f():", native)
        print("   run(f):", under)
print("message under run:", pyadapt.run(measure, "plain")[1])
