"""Megamorphic attribute and method loads: LOAD_ATTR_INSTANCE_VALUE_MEGA and
LOAD_METHOD_WITH_VALUES_MEGA read the shared attribute table (csrc/pa_internal.h), one entry
per (type version, name), instead of a site cache.  A polymorphic instance-value load whose
three type slots are taken becomes the first when a fourth type comes; a method load that
specialized for one type and then deoptimized for another becomes the second.  (richards'
four Task subclasses through Task.runnable and Scheduler.schedule.)

Every program is compared with native CPython by harness.check (generic mode, warmups 0, 2
and 50); then it runs adaptively, and pyadapt's stats and disassembly must show the form ran:
its hits, and where the program breaks a guard after the site became megamorphic, its misses
or a refill of the table -- with the native answer each time.
"""
import pytest

import pyadapt
from harness import DEFAULT_CONFIG, check

ATTR = "LOAD_ATTR_INSTANCE_VALUE_MEGA"
METHOD = "LOAD_METHOD_WITH_VALUES_MEGA"
EMPTY = {"hits": 0, "misses": 0, "deopts": 0}


def fresh(func):
    """A copy of func with a code object of its own: a unit with no deopt history (the sites of
    a function shared by several tests back off longer after each test that breaks them)."""
    import types
    fresh.made += 1
    code = func.__code__.replace(co_name="%s_%d" % (func.__name__, fresh.made))
    return types.FunctionType(code, func.__globals__, func.__name__)


fresh.made = 0


def forms_of(func):
    return {i.opname for i in pyadapt.get_instructions(func)}


def adaptive(func, *args, warmup=2, runs=3):
    """func(*args) `runs` times in adaptive mode: (results, pyadapt.stats()["specialized"],
    func's forms then; configure() afterwards re-quickens)."""
    pyadapt.configure(specialize=True, warmup=warmup)
    try:
        pyadapt.reset_stats()
        results = [pyadapt.run(func, *args) for _ in range(runs)]
        return results, pyadapt.stats()["specialized"], forms_of(func)
    finally:
        pyadapt.configure(**DEFAULT_CONFIG)


class Node:
    def __init__(self, v):
        self.v = v
        self.w = -v

    def weight(self):
        return self.w


# five subclasses sharing Node.__init__ (the attributes at the same index), each with a kind()
N1, N2, N3, N4, N5 = [type("N%d" % k, (Node,), {"kind": lambda self, k=k: k})
                      for k in range(1, 6)]


class Reordered:
    # v at another index than in Node's instances
    def __init__(self, v):
        self.w = -v
        self.v = v

    def weight(self):
        return self.w

    def kind(self):
        return 6


def nodes():
    return [N1(1), N2(2), N3(3), N4(4), N5(5), Reordered(6)]


def walk(n):
    objs = nodes()
    t = 0
    for i in range(n):
        o = objs[i % len(objs)]
        t += o.v * o.kind() + o.weight()
    return t


def test_many_types_hit_through_the_table():
    native = check(walk, (120,))
    for warmup in (0, 2, 50):
        results, s, forms = adaptive(walk, 600, warmup=warmup)
        assert results == [walk(600)] * 3, warmup
        assert {ATTR, METHOD} <= forms, (warmup, forms)
        attr, method = s.get(ATTR, EMPTY), s.get(METHOD, EMPTY)
        # every load of o.v from the third run on, and nearly every kind()/weight() call
        assert attr["hits"] >= 600 and attr["misses"] == 0, (warmup, attr)
        assert method["hits"] >= 600 and method["misses"] == 0, (warmup, method)
    assert native == walk(120)


def test_dis_shows_the_forms_without_a_site_cache():
    import io
    out = io.StringIO()
    pyadapt.configure(specialize=True, warmup=2)
    try:
        for _ in range(3):
            pyadapt.run(walk, 120)
        mega = [i for i in pyadapt.get_instructions(walk) if i.opname in (ATTR, METHOD)]
        pyadapt.dis(walk, adaptive=True, show_caches=True, file=out)
    finally:
        pyadapt.configure(**DEFAULT_CONFIG)
    assert mega, forms_of(walk)
    for ins in mega:
        # the site's own type fields are emptied: the table holds the types
        caches = dict(ins.caches)
        assert caches.get("type_version") == 0, (ins.opname, caches)
    assert ATTR in out.getvalue() and METHOD in out.getvalue()


def break_after(n, change):
    """walk's loop with `change(objs, classes)` run once, halfway; every outcome recorded."""
    objs = nodes()
    out = []
    for i in range(n):
        if i == n // 2:
            change(objs)
        o = objs[i % len(objs)]
        try:
            out.append((o.v, o.kind(), o.weight()))
        except AttributeError as exc:
            out.append(str(exc))
    return out


def materialize_dict(objs):
    vars(objs[2])                              # N3's values move into a dict


def delete_value(objs):
    del objs[3].v                              # an empty slot in N4's values


def property_on_class(objs):
    N2.v = property(lambda self: 1000)         # a data descriptor wins over the value


def method_replaced(objs):
    N1.kind = lambda self: -1                  # N1's version changes: the entry is refilled


def method_shadowed(objs):
    objs[4].kind = lambda: -5                  # an instance attribute hides N5.kind


def class_assigned(objs):
    objs[0].__class__ = N2                     # an N1 instance read as N2 now


def getattribute_added(objs):
    N4.__getattribute__ = lambda self, name: ("ga", name) if name == "v" else \
        object.__getattribute__(self, name)


def base_method_replaced(objs):
    Node.weight = lambda self: 7               # every subclass's version changes


BREAKS = [materialize_dict, delete_value, property_on_class, method_replaced, method_shadowed,
          class_assigned, getattribute_added, base_method_replaced]

_SAVED = {(cls, name): cls.__dict__[name] for cls in (Node, N1, N2, N3, N4, N5)
          for name in ("weight", "kind", "v", "__getattribute__") if name in cls.__dict__}


def _restore():
    # only what differs: each assignment to a class uses up one of its type versions, and
    # CPython 3.13 gives a class no more than 1,000 (then nothing of it specializes)
    for cls in (Node, N1, N2, N3, N4, N5):
        for name in ("weight", "kind", "v", "__getattribute__"):
            if (cls, name) in _SAVED:
                if cls.__dict__.get(name) is not _SAVED[(cls, name)]:
                    setattr(cls, name, _SAVED[(cls, name)])
            elif name in cls.__dict__:
                delattr(cls, name)


@pytest.mark.parametrize("change", BREAKS, ids=lambda f: f.__name__)
def test_guards(change):
    try:
        check(make=lambda: (_restore(), lambda: break_after(240, change))[1])
        _restore()
        want = break_after(240, change)
        _restore()
        pyadapt.configure(specialize=True, warmup=2)
        try:
            pyadapt.reset_stats()
            # twice first, so the sites are megamorphic before the change comes
            walk_, break_after_ = fresh(walk), fresh(break_after)
            pyadapt.run(walk_, 120)
            pyadapt.run(walk_, 120)
            got = pyadapt.run(break_after_, 240, change)
            s = pyadapt.stats()["specialized"]
        finally:
            pyadapt.configure(**DEFAULT_CONFIG)
        assert got == want
        assert s.get(ATTR, EMPTY)["hits"] > 0 and s.get(METHOD, EMPTY)["hits"] > 0, s
    finally:
        _restore()


def fresh_classes(n):
    # a new class per iteration (a new type version each time), then many live ones: entries
    # of dead types must never answer for new ones, and colliding entries replace each other
    out = []
    keep = []
    for i in range(n):
        cls = type("C%d" % i, (Node,), {"kind": lambda self, i=i: i})
        keep.append(cls(i))
        o = keep[i % len(keep)] if i % 3 else keep[-1]
        out.append((o.v, o.kind(), o.weight()))
    for o in keep:
        out.append((o.v, o.kind()))
    return out


def test_many_fresh_types():
    check(fresh_classes, (400,))
    results, s, _ = adaptive(fresh_classes, 1500)
    assert results == [fresh_classes(1500)] * 3
    # a fill costs the site's miss budget as a miss does: with a new type every iteration
    # the sites deoptimize every few dozen types and come back
    assert s.get(ATTR, EMPTY)["hits"] > 300 and s.get(METHOD, EMPTY)["hits"] > 300, s


class Slotted:
    __slots__ = ("v", "w")

    def __init__(self, v):
        self.v, self.w = v, -v

    def kind(self):
        return 7

    def weight(self):
        return self.w


def mixed_layouts(n):
    # instances without values (slots, a dict) come to the megamorphic sites: misses, and
    # the native answers
    d = N1(9)
    d.__dict__["extra"] = 1                    # a materialized dict
    objs = nodes() * 4 + [Slotted(8), d]
    t = 0
    for i in range(n):
        o = objs[i % len(objs)]
        t += o.v * o.kind() + o.weight()
    return t


def test_other_layouts_miss():
    check(mixed_layouts, (160,))
    results, s, _ = adaptive(fresh(mixed_layouts), 800)
    assert results == [mixed_layouts(800)] * 3
    attr = s.get(ATTR, EMPTY)
    assert attr["hits"] > 0 and (attr["misses"] > 0 or attr["deopts"] > 0), attr


def test_site_record_names_the_table():
    from pyadapt import _sites

    walk_alone = fresh(walk)    # no other test's guard-breaking in its records
    pyadapt.configure(specialize=True, warmup=2)
    try:
        for _ in range(3):
            pyadapt.run(walk_alone, 120)
        records = {r["form"]: r for r in _sites.site_records([walk_alone.__code__])
                   if r["form"] in (ATTR, METHOD)}
    finally:
        pyadapt.configure(**DEFAULT_CONFIG)
    assert set(records) == {ATTR, METHOD}, records
    # the load became megamorphic at its fourth type, which went into the table; the method
    # load at its second type (the specializer's own result; entries for the types that came
    # later may be in the table already, from other tests)
    attr = [(e["kind"], e["result"]) for e in records[ATTR]["seen"]]
    assert ("another type: into the shared attribute table", "LOAD_ATTR_INSTANCE_VALUE") \
        in attr, attr
    assert METHOD in [e["result"] for e in records[METHOD]["seen"]], records[METHOD]["seen"]
    for form, r in records.items():
        assert r["misses"] == 0 and r["advice"] is None, (form, r)
