"""LOAD_ATTR_NONDESCRIPTOR_NO_DICT: a class attribute that is not a descriptor (a class-level
constant) read through an instance whose class gives it no __dict__ (__slots__), guarded by
the type's version alone: with no instance dict, nothing in the instance can shadow the
class's answer.

Each program is compared with native CPython by harness.check (generic mode, warmups 0, 2 and
50); then it runs adaptively and pyadapt.stats() must show the form's hits and, where the
program breaks the guard after the site specialized, its misses.
"""
import pytest

import pyadapt
from harness import DEFAULT_CONFIG, check

FORM = "LOAD_ATTR_NONDESCRIPTOR_NO_DICT"
CLASS_ATTR = "plain class attribute on an instance"
MUTABLE_CLASS = "class attribute of a mutable class (could gain __get__/__set__)"


def site_forms(func):
    return [i.opname for i in pyadapt.get_instructions(func) if i.family == "LOAD_ATTR"]


def adaptive(func, args, warmup=2, runs=3):
    """func(*args) `runs` times in adaptive mode: (results, stats of FORM, LOAD_ATTR's failure
    kinds, func's LOAD_ATTR sites as they are then)."""
    pyadapt.configure(specialize=True, warmup=warmup)
    try:
        pyadapt.reset_stats()
        results = [pyadapt.run(func, *args) for _ in range(runs)]
        s = pyadapt.stats()
        forms = site_forms(func)
    finally:
        pyadapt.configure(**DEFAULT_CONFIG)
    form = s["specialized"].get(FORM, {"hits": 0, "misses": 0, "deopts": 0})
    return results, form, s["families"]["LOAD_ATTR"]["failure_kinds"], forms


class Point:
    __slots__ = ("x", "y")
    ORIGIN = (0, 0)
    SCALE = 2.5

    def __init__(self, x, y):
        self.x, self.y = x, y


class Point3(Point):
    __slots__ = ("z",)

    def __init__(self, x, y, z):
        super().__init__(x, y)
        self.z = z


def read_constants(n):
    p, t = Point(1, 2), 0.0
    for _ in range(n):
        t += p.SCALE * p.x
    return t, p.ORIGIN


def test_hit_path():
    native = check(read_constants, (50,))
    for warmup in (0, 1, 2, 50):
        results, form, _, forms = adaptive(read_constants, (50,), warmup=warmup)
        assert all(r == native for r in results), warmup
        assert form["hits"] >= 50 and form["misses"] == 0, (warmup, form)
        assert FORM in forms and "LOAD_ATTR_SLOT" in forms, forms


def inherited_constant(n):
    # the constant found on a base, read through instances of the subclass
    t = 0.0
    for i in range(n):
        t += Point3(i, 1, 2).SCALE
    return t


def builtin_without_dict(n):
    # an instance of a C type without a dict: a str's __doc__ lives in str's type dict
    docs = []
    for i in range(n):
        docs.append(len(str(i).__doc__))
    return docs


@pytest.mark.parametrize("func", [inherited_constant, builtin_without_dict],
                         ids=lambda f: f.__name__)
def test_other_owners_hit(func):
    native = check(func, (30,))
    results, form, _, _ = adaptive(func, (30,))
    assert all(r == native for r in results)
    assert form["hits"] > 0 and form["misses"] == 0, form


# ---- the program breaks the guard after the site specialized ----

def reassigned(n):
    class S:
        __slots__ = ("a",)
        K = 1
    o, out = S(), []
    for i in range(n):
        if i == n // 2:
            S.K = "reassigned"
        out.append(o.K)
    return out


def base_reassigned(n):
    class B:
        __slots__ = ()
        K = 1
    class S(B):
        __slots__ = ("a",)
    o, out = S(), []
    for i in range(n):
        if i == n // 2:
            B.K = 2
        out.append(o.K)
    return out


def gains_property(n):
    class S:
        __slots__ = ("a",)
        K = 1
    o, out = S(), []
    for i in range(n):
        if i == n // 2:
            S.K = property(lambda self: "property")
        out.append(o.K)
    return out


def base_gains_data_descriptor(n):
    class Data:
        def __get__(self, obj, tp):
            return "data descriptor"

        def __set__(self, obj, value):
            raise AttributeError("read-only")
    class B:
        __slots__ = ()
    class S(B):
        __slots__ = ("a",)
        K = 1
    o, out = S(), []
    for i in range(n):
        if i == n // 3:
            del S.K
            B.K = Data()
        out.append(o.K)
    return out


def deleted(n):
    class S:
        __slots__ = ("a",)
        K = 1
    o, out = S(), []
    for i in range(n):
        if i == n // 2:
            del S.K
        try:
            out.append(o.K)
        except AttributeError as e:
            out.append("AttributeError: %s" % e)
    return out


def getattr_added(n):
    class S:
        __slots__ = ()
        K = 1
    o, out = S(), []
    for i in range(n):
        if i == n // 2:
            S.__getattribute__ = lambda self, name: "getattribute " + name
        out.append(o.K)
    return out


def class_assigned(n):
    class S:
        __slots__ = ("a",)
        K = "S"
    class T:
        __slots__ = ("a",)
        K = "T"
    o, out = S(), []
    for i in range(n):
        if i == n // 2:
            o.__class__ = T
        out.append(o.K)
    return out


def subclass_at_the_site(n):
    # a subclass with a slot of the name (its member descriptor shadows the constant), a
    # subclass with a __dict__ whose instance has its own value, a plain subclass
    class S:
        __slots__ = ()
        K = "class"
    class WithSlot(S):
        __slots__ = ("K",)
    class WithDict(S):
        pass
    class Plain(S):
        __slots__ = ()
    ws, wd = WithSlot(), WithDict()
    ws.K, wd.K = "slot", "instance"
    objs = [S()] * (n // 2) + [ws, wd, Plain(), WithSlot()] * (n // 8)
    out = []
    for o in objs:
        try:
            out.append(o.K)
        except AttributeError as e:
            out.append("AttributeError: %s" % e)
    return out


@pytest.mark.parametrize("func", [reassigned, base_reassigned, gains_property,
                                  base_gains_data_descriptor, deleted, getattr_added,
                                  class_assigned, subclass_at_the_site],
                         ids=lambda f: f.__name__)
def test_guard_broken_after_specialization(func):
    native = check(func, (40,))
    results, form, _, _ = adaptive(func, (40,))
    assert all(r == native for r in results)
    assert form["hits"] > 0 and form["misses"] > 0, form


# ---- what the specializer still refuses ----

def exception_instance(n):
    # BaseException keeps its dict at an offset of its own, not a managed one
    class E(Exception):
        K = 3
    e, t = E(), 0
    for _ in range(n):
        t += e.K
    return t


def constant_of_a_mutable_class(n):
    class V:
        pass
    class S:
        __slots__ = ()
        K = V()
    o, out = S(), []
    for i in range(n):
        if i == n // 2:
            V.__get__ = lambda self, obj, tp: "got"
        out.append(type(o.K).__name__)
    return out


@pytest.mark.parametrize("func,kind", [(exception_instance, CLASS_ATTR),
                                       (constant_of_a_mutable_class, MUTABLE_CLASS)],
                         ids=["dict_at_an_offset", "mutable_class"])
def test_refused_with_its_kind(func, kind):
    native = check(func, (30,))
    results, form, kinds, _ = adaptive(func, (30,), warmup=0)
    assert all(r == native for r in results)
    assert form["hits"] == 0
    assert kinds.get(kind, 0) > 0, kinds
