"""Python frames entered from C: callbacks of builtins and the special methods the runtime calls.

Each case names (with ``entered``) the Python code that C calls back into: pyadapt must have run
those frames too, not only the case function.
"""

import copy
import functools
import heapq
import itertools
import json
import operator
import re
import weakref

import pytest

from harness import collect, entered, factory, run_case


def attempt(thunk):
    try:
        return thunk()
    except Exception as e:  # noqa: BLE001
        return (type(e).__name__, str(e))


def by_last_char(s):
    return s[-1]


def is_even(n):
    return n % 2 == 0


def mul(a, b):
    return a * b


@entered(by_last_char)
def case_sorted_key():
    words = ["pear", "fig", "apple", "kiwi", "banana", "plum"]
    out = [sorted(words, key=by_last_char), sorted(words, key=by_last_char, reverse=True)]
    words.sort(key=by_last_char)
    out.append(words)
    out.append(min(words, key=by_last_char))
    out.append(max(words, key=by_last_char))
    out.append(sorted(words, key=lambda w: (len(w), w)))
    return out


@entered(is_even, mul)
def case_map_filter_reduce():
    nums = list(range(1, 11))
    return [list(map(is_even, nums)), list(filter(is_even, nums)), functools.reduce(mul, nums), functools.reduce(mul, [], 1), list(map(mul, nums, reversed(nums))), attempt(lambda: functools.reduce(mul, []))]


@entered(mul)
def case_itertools_callbacks():
    data = [1, 2, 3, 4, 5]
    return [
        list(itertools.accumulate(data, mul)),
        list(itertools.starmap(mul, zip(data, data))),
        [(k, list(g)) for k, g in itertools.groupby("aabbbc", key=lambda c: c.upper())],
        list(itertools.takewhile(lambda v: v < 3, data)),
        list(itertools.dropwhile(lambda v: v < 3, data)),
        list(itertools.filterfalse(is_even, data)),
    ]


class HKey:
    eq_calls = 0

    def __init__(self, v):
        self.v = v

    def __eq__(self, other):
        HKey.eq_calls += 1
        return isinstance(other, HKey) and self.v == other.v

    def __hash__(self):
        return self.v % 4  # collisions force __eq__ calls inside the dict lookup

    def __repr__(self):
        return f"HKey({self.v})"


@entered(HKey.__eq__, HKey.__hash__)
def case_dict_lookup_calls_eq_and_hash():
    HKey.eq_calls = 0
    d = {HKey(i): i for i in range(12)}
    found = [d[HKey(i)] for i in range(12)]
    missing = attempt(lambda: d[HKey(99)])
    s = {HKey(1), HKey(5), HKey(1)}
    return found, missing, len(s), HKey(5) in s, HKey(2) in s, [HKey(3)].index(HKey(3)), [HKey(1), HKey(1)].count(HKey(1)), HKey.eq_calls > 0


class Dyn:
    def __init__(self):
        self.real = "real attribute"

    def __getattr__(self, name):
        if name.startswith("no_"):
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r} (custom)")
        return f"dynamic {name}"


class Guarded:
    def __getattribute__(self, name):
        if name == "secret":
            raise AttributeError("secret is hidden")
        return object.__getattribute__(self, name)

    def __setattr__(self, name, value):
        object.__setattr__(self, name, value * 2)

    def __delattr__(self, name):
        object.__setattr__(self, name, "deleted")


@entered(Dyn.__getattr__, Guarded.__getattribute__, Guarded.__setattr__)
def case_attribute_hooks():
    d = Dyn()
    g = Guarded()
    g.x = 21
    del g.x
    g.y = "ab"
    return [d.real, d.anything, getattr(d, "other"), getattr(d, "no_x", "default"), attempt(lambda: d.no_y), hasattr(d, "no_z"), g.x, g.y, attempt(lambda: g.secret), getattr(g, "secret", "fallback")]


class Countdown:
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return self

    def __next__(self):
        if self.n <= 0:
            raise StopIteration
        self.n -= 1
        return self.n

    def __length_hint__(self):
        return self.n


class OldSeq:
    def __getitem__(self, i):
        if i >= 4:
            raise IndexError(i)
        return i * 10


@entered(Countdown.__next__, Countdown.__iter__, OldSeq.__getitem__)
def case_iterator_protocol_classes():
    out = [list(Countdown(5)), sum(Countdown(4)), sorted(Countdown(3)), tuple(OldSeq()), 20 in OldSeq()]
    out.append(dict(zip(Countdown(3), OldSeq())))
    out.append(list(iter(Countdown(2).__next__, 0)))
    out.append(",".join(str(v) for v in Countdown(3)))
    for v in Countdown(2):
        out.append(("for", v))
    a, b, *c = Countdown(5)
    out.append((a, b, c))
    out.append([*Countdown(2), *OldSeq()])
    return out


@factory
def case_del_called():
    log = []

    class Res:
        def __init__(self, name):
            self.name = name

        def __del__(self):
            log.append(f"del {self.name}")

    def f():
        a = Res("a")
        b = Res("b")
        del a
        log.append("after del a")
        b = None  # noqa: F841
        log.append("after rebinding b")
        [Res(f"tmp{i}") for i in range(2)]
        return "returned"

    return f, lambda: list(log)


def case_del_entered_from_c():
    """Like case_del_called, with proof that pyadapt ran __del__ itself."""
    return _del_probe()


class Probe:
    log = []

    def __del__(self):
        Probe.log.append("probe deleted")


def _del_probe():
    Probe.log = []
    p = Probe()
    del p
    return list(Probe.log)


case_del_entered_from_c = entered(Probe.__del__)(case_del_entered_from_c)


class Num:
    def __init__(self, v):
        self.v = v

    def __index__(self):
        return self.v

    def __int__(self):
        return self.v + 1000

    def __float__(self):
        return self.v / 2

    def __complex__(self):
        return complex(self.v, 1)

    def __bool__(self):
        return self.v != 0

    def __len__(self):
        return abs(self.v)

    def __abs__(self):
        return Num(abs(self.v))

    def __round__(self, nd=None):
        return ("rounded", nd)

    def __repr__(self):
        return f"Num({self.v})"

    def __format__(self, spec):
        return f"<{self.v}:{spec}>"

    def __lt__(self, other):
        return self.v < other.v

    def __fspath__(self):
        return f"/path/{self.v}"


@entered(Num.__index__, Num.__int__, Num.__float__, Num.__bool__, Num.__len__, Num.__repr__, Num.__lt__)
def case_conversion_dunders():
    import os

    n = Num(3)
    z = Num(0)
    return [
        [10, 20, 30, 40][n],
        "abcdef"[n:],
        int(n),
        float(n),
        complex(n),
        bool(n),
        bool(z),
        "yes" if n else "no",
        len(n),
        abs(Num(-4)),
        round(n),
        round(n, 2),
        repr([n, z]),
        str(n),
        format(n, "x"),
        f"{n:y}",
        hex(n),
        range(n)[-1],
        sorted([Num(3), Num(1), Num(2)]),
        os.fspath(n),
        n.__lt__(z),
        attempt(lambda: Num(1) > 3),
    ]


@entered(Num.__lt__)
def case_heapq_and_bisect_call_lt():
    import bisect

    h = []
    for v in (5, 1, 4, 2, 3):
        heapq.heappush(h, Num(v))
    popped = [heapq.heappop(h).v for _ in range(5)]
    xs = [Num(1), Num(3), Num(5)]
    idx = bisect.bisect_left(xs, Num(4))
    return popped, idx, [n.v for n in heapq.nsmallest(2, [Num(9), Num(7), Num(8)])]


class Meta(type):
    def __instancecheck__(cls, obj):
        return obj == "anything goes"

    def __subclasscheck__(cls, sub):
        return sub is int


class Checker(metaclass=Meta):
    pass


@entered(Meta.__instancecheck__, Meta.__subclasscheck__)
def case_instancecheck_hooks():
    return isinstance("anything goes", Checker), isinstance(1, Checker), issubclass(int, Checker), issubclass(str, Checker)


class Container:
    def __init__(self):
        self.data = {}

    def __getitem__(self, k):
        return self.data[k]

    def __setitem__(self, k, v):
        self.data[k] = v

    def __delitem__(self, k):
        del self.data[k]

    def __contains__(self, k):
        return k in self.data

    def __reversed__(self):
        return iter(sorted(self.data, reverse=True))

    def __missing__(self, k):  # not used by a non-dict: must not be called
        return "missing"


@entered(Container.__setitem__, Container.__getitem__, Container.__contains__, Container.__reversed__)
def case_container_dunders_via_operator_module():
    c = Container()
    operator.setitem(c, "a", 1)
    c["b"] = 2
    out = [operator.getitem(c, "a"), c["b"], operator.contains(c, "a"), "z" in c, list(reversed(c)), attempt(lambda: c["zz"])]
    operator.delitem(c, "a")
    out.append(sorted(c.data))
    out.append(operator.attrgetter("data")(c))
    out.append(operator.methodcaller("__contains__", "b")(c))
    return out


def case_dict_subclass_missing():
    class Default(dict):
        def __missing__(self, key):
            self[key] = len(key)
            return self[key]

    d = Default()
    return d["abc"], d["xy"], dict(d), d.get("nope", "get does not call __missing__")


def case_weakref_callbacks():
    log = []

    class Obj:
        pass

    o = Obj()
    r = weakref.ref(o, lambda ref: log.append("callback"))
    weakref.finalize(o, log.append, "finalizer")
    alive = r() is o
    del o
    return alive, r(), log


def case_json_and_re_callbacks():
    def default(obj):
        if isinstance(obj, set):
            return sorted(obj)
        raise TypeError(f"cannot encode {type(obj).__name__}")

    text = json.dumps({"s": {3, 1, 2}}, default=default)
    hooked = json.loads('{"a": {"b": 1}}', object_hook=lambda d: {k.upper(): v for k, v in d.items()})
    subbed = re.sub(r"\d+", lambda m: str(int(m.group()) * 2), "a1 b22 c333")
    keyed = sorted(["b10", "a2", "c1"], key=lambda s: int(re.search(r"\d+", s).group()))
    return text, hooked, subbed, keyed, attempt(lambda: json.dumps(object(), default=default))


@entered("__deepcopy__", "__copy__")
def case_copy_protocols():
    log = []

    class Node:
        def __init__(self, v, children=()):
            self.v = v
            self.children = list(children)

        def __copy__(self):
            log.append("copy")
            return Node(self.v, self.children)

        def __deepcopy__(self, memo):
            log.append("deepcopy")
            return Node(self.v, copy.deepcopy(self.children, memo))

    tree = Node(1, [Node(2), Node(3)])
    shallow = copy.copy(tree)
    deep = copy.deepcopy(tree)
    import pickle

    PickleMe.log = log
    restored = pickle.loads(pickle.dumps(PickleMe(7)))
    return shallow.children is tree.children, deep.children is tree.children, [c.v for c in deep.children], restored.v, log


class PickleMe:
    log = []

    def __init__(self, v):
        self.v = v

    def __reduce__(self):
        PickleMe.log.append("reduce")
        return (PickleMe, (self.v,))


def case_callable_instances_in_builtins():
    class Scale:
        def __init__(self, k):
            self.k = k

        def __call__(self, v):
            return v * self.k

    s = Scale(3)
    return list(map(s, [1, 2, 3])), sorted([3, 1, 2], key=s), functools.partial(s)(5), [s(i) for i in range(3)]


def case_class_creation_hooks():
    log = []

    class Field:
        def __set_name__(self, owner, name):
            log.append(("set_name", name))

    class Base:
        def __init_subclass__(cls, **kw):
            log.append(("init_subclass", cls.__name__))

        def __class_getitem__(cls, item):
            return (cls.__name__, item)

    class Child(Base):
        f = Field()
        g = Field()

    return log, Child[int]


def case_exception_in_callback_propagates():
    def key(v):
        if v == 3:
            raise ValueError("bad key 3")
        return -v

    out = [attempt(lambda: sorted([1, 2, 3, 4], key=key))]

    class BadEq:
        def __hash__(self):
            return 1

        def __eq__(self, o):
            raise RuntimeError("eq exploded")

    d = {BadEq(): 1}
    out.append(attempt(lambda: d[BadEq()]))

    class BadIter:
        def __iter__(self):
            return self

        def __next__(self):
            raise KeyError("next exploded")

    out.append(attempt(lambda: list(BadIter())))
    out.append(attempt(lambda: list(map(lambda v: 1 / v, [1, 0]))))
    return out


def case_uncaught_exception_through_c_frames():
    def key(v):
        return {"a": 1}[v]

    return sorted(["a", "b"], key=key)


def case_generator_consumed_by_c():
    def gen(n):
        for i in range(n):
            yield i * i

    return sum(gen(10)), list(gen(3)), dict((i, v) for i, v in enumerate(gen(3))), "".join(str(v) for v in gen(4)), max(gen(5)), sorted(gen(4), reverse=True), any(v > 5 for v in gen(10)), set(gen(3))


@pytest.mark.parametrize("case,args,kwargs", collect(globals()))
def test_case(case, args, kwargs):
    run_case(case, args, kwargs)
