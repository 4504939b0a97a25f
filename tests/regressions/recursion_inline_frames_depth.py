# pyadapt regression: depth and RecursionError message of recursion through every call pyadapt may run in an
#   inline frame (variant of recursion_class_init.py), at both parities of the remaining limit:
#   CALL_PY_CLASS charges two levels like type.__call__ + __init__, the other forms one.
# MODES: adaptive generic w0
# CPython 3.13.0 to 3.13.7 do not check the recursion limit in a specialized call of a function
#   with defaults (cpython gh-132744, fixed in 3.13.8): `defaults` natively recurses until
#   memory runs out (SIGSEGV under a 1 GB ulimit, 3.13.0).  There pyadapt is compared with
#   the output recorded below: 3.13.0's own for the other kinds, and for `defaults` what
#   3.12 and 3.13.8 print, as `plain`.
# NATIVE-BUG: 3.13.0-3.13.7 cpython gh-132744
# On 3.13 `init` costs two levels a call once CPython specialized the site (a shim frame's and
#   __init__'s), one before: generic mode differs, as its first calls of each code object run
#   cold in CPython's loop, which specializes and runs __init__ there, and later ones in
#   pyadapt's generic call (see recursion_class_init.py).
# MODES-3.13: adaptive w0
# EXPECTED-EXIT: 0
# EXPECTED-STDOUT:
#| init 100 [(49, 'maximum recursion depth exceeded while calling a Python object')]
#| init 101 [(49, 'maximum recursion depth exceeded')]
#| property 100 [(99, 'maximum recursion depth exceeded')]
#| property 101 [(100, 'maximum recursion depth exceeded')]
#| getattribute 100 [(100, 'maximum recursion depth exceeded')]
#| getattribute 101 [(101, 'maximum recursion depth exceeded')]
#| getitem 100 [(99, 'maximum recursion depth exceeded')]
#| getitem 101 [(100, 'maximum recursion depth exceeded')]
#| plain 100 [(99, 'maximum recursion depth exceeded')]
#| plain 101 [(100, 'maximum recursion depth exceeded')]
#| defaults 100 [(99, 'maximum recursion depth exceeded')]
#| defaults 101 [(100, 'maximum recursion depth exceeded')]
#| gen_for 100 [(99, 'maximum recursion depth exceeded')]
#| gen_for 101 [(100, 'maximum recursion depth exceeded')]
#| gen_from 100 [(99, 'maximum recursion depth exceeded')]
#| gen_from 101 [(100, 'maximum recursion depth exceeded')]
#| method 100 [(99, 'maximum recursion depth exceeded')]
#| method 101 [(100, 'maximum recursion depth exceeded')]
# EXPECTED-STDOUT-3.12:
#| init 100 [(99, 'maximum recursion depth exceeded')]
#| init 101 [(100, 'maximum recursion depth exceeded')]
#| property 100 [(99, 'maximum recursion depth exceeded')]
#| property 101 [(100, 'maximum recursion depth exceeded')]
#| getattribute 100 [(100, 'maximum recursion depth exceeded')]
#| getattribute 101 [(101, 'maximum recursion depth exceeded')]
#| getitem 100 [(99, 'maximum recursion depth exceeded')]
#| getitem 101 [(100, 'maximum recursion depth exceeded')]
#| plain 100 [(99, 'maximum recursion depth exceeded')]
#| plain 101 [(100, 'maximum recursion depth exceeded')]
#| defaults 100 [(99, 'maximum recursion depth exceeded')]
#| defaults 101 [(100, 'maximum recursion depth exceeded')]
#| gen_for 100 [(99, 'maximum recursion depth exceeded')]
#| gen_for 101 [(100, 'maximum recursion depth exceeded')]
#| gen_from 100 [(99, 'maximum recursion depth exceeded')]
#| gen_from 101 [(100, 'maximum recursion depth exceeded')]
#| method 100 [(99, 'maximum recursion depth exceeded')]
#| method 101 [(100, 'maximum recursion depth exceeded')]
# EXPECTED-STDOUT-3.13:
#| init 100 [(49, 'maximum recursion depth exceeded'), (50, 'maximum recursion depth exceeded')]
#| init 101 [(49, 'maximum recursion depth exceeded')]
#| property 100 [(99, 'maximum recursion depth exceeded')]
#| property 101 [(100, 'maximum recursion depth exceeded')]
#| getattribute 100 [(100, 'maximum recursion depth exceeded')]
#| getattribute 101 [(101, 'maximum recursion depth exceeded')]
#| getitem 100 [(99, 'maximum recursion depth exceeded')]
#| getitem 101 [(100, 'maximum recursion depth exceeded')]
#| plain 100 [(99, 'maximum recursion depth exceeded')]
#| plain 101 [(100, 'maximum recursion depth exceeded')]
#| defaults 100 [(99, 'maximum recursion depth exceeded')]
#| defaults 101 [(100, 'maximum recursion depth exceeded')]
#| gen_for 100 [(99, 'maximum recursion depth exceeded')]
#| gen_for 101 [(100, 'maximum recursion depth exceeded')]
#| gen_from 100 [(99, 'maximum recursion depth exceeded')]
#| gen_from 101 [(100, 'maximum recursion depth exceeded')]
#| method 100 [(99, 'maximum recursion depth exceeded')]
#| method 101 [(100, 'maximum recursion depth exceeded')]
import sys

def headroom(n=0):
    try:
        return headroom(n + 1)
    except RecursionError:
        return n

depth = 0

class Init:
    def __init__(self, n):
        global depth
        depth = n
        Init(n + 1)

class Prop:
    def __init__(self, n):
        self.n = n
    @property
    def p(self):
        global depth
        depth = self.n
        self.n += 1
        return self.p

class GetAttribute:
    def __getattribute__(self, name):
        global depth
        depth += 1
        return self.x

class GetItem:
    def __getitem__(self, n):
        global depth
        depth = n
        return self[n + 1]

def plain(n):
    global depth
    depth = n
    plain(n + 1)

def defaults(n, step=1):
    global depth
    depth = n
    defaults(n + step)

def gen_for(n):
    global depth
    depth = n
    for x in gen_for(n + 1):
        yield x

def gen_from(n):
    global depth
    depth = n
    yield from gen_from(n + 1)

class Method:
    def m(self, n):
        global depth
        depth = n
        self.m(n + 1)

KINDS = {
    "init": lambda: Init(0),
    "property": lambda: Prop(0).p,
    "getattribute": lambda: GetAttribute().x,
    "getitem": lambda: GetItem()[0],
    "plain": lambda: plain(0),
    "defaults": lambda: defaults(0),
    "gen_for": lambda: list(gen_for(0)),
    "gen_from": lambda: list(gen_from(0)),
    "method": lambda: Method().m(0),
}

def measure(kind, room):
    global depth
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(limit - headroom() + room)
    try:
        depth = 0
        try:
            KINDS[kind]()
        except RecursionError as e:
            return depth, str(e)
        return depth, "no error"
    finally:
        sys.setrecursionlimit(limit)

for kind in KINDS:
    for room in (100, 101):
        results = {measure(kind, room) for _ in range(4)}
        print(kind, room, sorted(results))
