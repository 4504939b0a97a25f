"""No guard is skipped: for every specialized form, a case that lets the site specialize, then
breaks the assumption the form's guard protects (docs/architecture.md, "Guards of every
specialized form") and records what the program sees -- values, exception types and messages.

Every case is run by harness.check (native, then generic mode and adaptive warmups 0, 2 and 50,
compared observably), and then once more in adaptive mode, where pyadapt's statistics must show
the form under test *hit* (so the break happened to a specialized site, not to one still
adaptive) and the result must still be native.

A case loops ``n`` times and changes the world at ``i == n // 2``.  Classes and modules are
made inside the case, so every run starts from the same state; what a case changes outside
itself (builtins) it restores.
"""
import builtins
import sys
import types

import pytest

import pyadapt
from harness import attributes_in_dict_only, check, diff

N = 40


def outcome(op):
    """op()'s value, or the type and message of what it raised."""
    try:
        return op()
    except Exception as e:  # noqa: BLE001 - every exception is part of what is compared
        return "%s: %s" % (type(e).__name__, e)


def loop(n, op, change):
    """[outcome(op) for each i], with change() run once before iteration n // 2."""
    out = []
    for i in range(n):
        if i == n // 2:
            change()
        out.append(outcome(op))
    return out


def phases(per_phase, vals, op):
    """op(*vals[0]) until the sites in op specialized, then op(*v) for each later v: each change
    comes half-way through a loop of per_phase iterations, on the same sites."""
    current = [vals[0]]
    out = []
    for v in vals[1:]:
        out += loop(per_phase, lambda: op(*current[0]), lambda v=v: current.__setitem__(0, v))
    return out


def fresh_class(base=object):
    """A new class on every call: its instances get x = 1 in their inline values (managed dict)
    and a method m() returning "method"."""
    class C(base):
        def __init__(self):
            self.x = 1

        def m(self):
            return "method"
    return C


def fresh_module(name="gmod", **attrs):
    m = types.ModuleType(name)
    m.__dict__.update(attrs)
    return m


# ================= LOAD_ATTR =================
# guard: type version (+ inline values present / dict entry at the hint / slot not empty)

def la_value_data_descriptor_in_base(n):
    class Base:
        pass
    C = fresh_class(Base)
    o = C()
    return loop(n, lambda: o.x, lambda: setattr(Base, "x", property(lambda self: "prop")))


def la_value_getattribute_added(n):
    C = fresh_class()
    o = C()
    return loop(n, lambda: o.x,
                lambda: setattr(C, "__getattribute__", lambda self, name: "ga " + name))


def la_value_bases_assigned(n):
    class A:
        pass
    class B:
        x = property(lambda self: "from B")
    C = fresh_class(A)
    o = C()
    return loop(n, lambda: o.x, lambda: setattr(C, "__bases__", (B,)))


def la_value_class_assigned_to_slots_free(n):
    class A:
        def __init__(self):
            self.x = 1
    class B:
        @property
        def x(self):
            return "B.x"
    o = A()
    return loop(n, lambda: o.x, lambda: setattr(o, "__class__", B))


def la_value_deleted(n):
    C = fresh_class()
    o = C()
    return loop(n, lambda: o.x, lambda: delattr(o, "x"))


def la_value_list_subclass(n):
    class L(list):
        def __init__(self):
            self.x = 1
    class L2(list):
        x = property(lambda self: len(self))
    objs = [L(), L2([1, 2, 3])]
    state = [0]
    return loop(n, lambda: objs[state[0]].x, lambda: state.__setitem__(0, 1))


def la_hint_dict_replaced(n):
    C = fresh_class()
    o = C()
    o.__dict__["y"] = 2             # materialized: LOAD_ATTR_WITH_HINT
    attributes_in_dict_only(o)
    return loop(n, lambda: o.x, lambda: setattr(o, "__dict__", {"y": 3}))


def la_hint_descriptor_added(n):
    C = fresh_class()
    o = C()
    o.__dict__["y"] = 2
    attributes_in_dict_only(o)
    return loop(n, lambda: o.x, lambda: setattr(C, "x", property(lambda self: "prop")))


def la_slot_emptied(n):
    class S:
        __slots__ = ("a", "b")
    o = S()
    o.a = 1
    return loop(n, lambda: o.a, lambda: delattr(o, "a"))


def la_slot_replaced_by_property(n):
    class S:
        __slots__ = ("a",)
    o = S()
    o.a = 1
    return loop(n, lambda: o.a, lambda: setattr(S, "a", property(lambda self: "prop")))


def la_slot_class_assigned(n):
    class S:
        __slots__ = ("a", "b")
    class T:
        __slots__ = ("b", "a")       # same layout size, the other order
    o = S()
    o.a, o.b = "a", "b"
    return loop(n, lambda: o.a, lambda: setattr(o, "__class__", T))


def la_module_attr_replaced_deleted(n):
    m = fresh_module(x=1, y=2)
    def change():
        m.x = "replaced"
    out = loop(n, lambda: m.x, change)
    out += loop(n, lambda: m.y, lambda: delattr(m, "y"))
    return out


def la_module_getattr_added(n):
    m = fresh_module(x=1)
    def change():
        del m.x
        m.__getattr__ = lambda name: "module __getattr__ " + name
    return loop(n, lambda: m.x, change)


def la_module_class_assigned(n):
    class M(types.ModuleType):
        @property
        def x(self):
            return "property of the module class"
    m = fresh_module(x=1)
    return loop(n, lambda: m.x, lambda: setattr(m, "__class__", M))


def la_class_attr_reassigned_deleted(n):
    class Base:
        x = "base"
    class C(Base):
        x = 1
    out = loop(n, lambda: C.x, lambda: setattr(C, "x", 2))
    out += loop(n, lambda: C.x, lambda: delattr(C, "x"))
    out += loop(n, lambda: C.x, lambda: delattr(Base, "x"))
    return out


def la_class_c_descriptors(n):
    # a slot wrapper or C method read through its class is the descriptor itself (pprint's
    # `r is dict.__repr__`); type's own non-data attribute of the name (type.__repr__) does
    # not answer where the class has one; a classmethod descriptor (dict.fromkeys) and type's
    # data descriptors (__name__, __doc__) are not taken; a heap class inheriting the
    # wrapper has it replaced
    class C:
        pass
    out = loop(n, lambda: (int.__repr__ is int.__dict__["__repr__"], dict.__repr__(
        {1: 2}), list.append.__name__, C.__repr__ is object.__repr__, C.__hash__(C())
        is not None), lambda: setattr(C, "__repr__", lambda self: "C!"))
    out += loop(n, lambda: (dict.fromkeys("ab"), int.__name__, C.__name__, str.__doc__[:9],
                            repr(C())), lambda: setattr(C, "__name__", "D"))
    out += loop(n, lambda: C.mro()[0].__name__, lambda: setattr(C, "mro", lambda: ["own"]))
    return out


def la_class_bases_assigned(n):
    class A:
        x = "A"
    class B:
        x = staticmethod(lambda: "B")
    class C(A):
        pass
    return loop(n, lambda: C.x, lambda: setattr(C, "__bases__", (B,)))


def la_class_attr_of_mutable_class(n):
    class V:
        pass
    class C:
        x = V()
    return loop(n, lambda: type(C.x).__name__,
                lambda: setattr(V, "__get__", lambda self, obj, tp: "got"))


def la_nondescr_class_attr_changes(n):
    # a plain class attribute read through an instance: reassigned or deleted on the class
    # or a base, replaced by a property (type version)
    class Base:
        k = 5
    C = fresh_class(Base)
    o = C()
    out = loop(n, lambda: o.k, lambda: setattr(Base, "k", 6))
    out += loop(n, lambda: o.k, lambda: setattr(C, "k", "own"))
    out += loop(n, lambda: o.k, lambda: setattr(C, "k", property(lambda self: "prop")))
    out += loop(n, lambda: o.k, lambda: delattr(C, "k"))
    out += loop(n, lambda: o.k, lambda: delattr(Base, "k"))
    return out


def la_nondescr_shadowed_by_instance(n):
    # the instance (its inline values), another instance (the shared keys version) or a
    # materialized __dict__ gains the name: the instance's value wins
    class C:
        k = "class"
    o, p, q = C(), C(), C()
    out = loop(n, lambda: (o.k, p.k), lambda: setattr(p, "k", "p's"))
    out += loop(n, lambda: (o.k, q.k), lambda: q.__dict__.__setitem__("k", "q's"))
    out += loop(n, lambda: o.k, lambda: setattr(o, "k", "o's"))
    return out


def la_nondescr_dict_and_class_changes(n):
    class C:
        k = 1.5
        def __init__(self):
            self.a = 1
    class D:
        k = "D"
    o = C()
    out = loop(n, lambda: o.k, lambda: o.__dict__)          # materialized: generic path
    o2 = C()
    out += loop(n, lambda: o2.k, lambda: setattr(o2, "__class__", D))
    o3 = C()
    out += loop(n, lambda: o3.k,
                lambda: setattr(C, "__getattribute__", lambda self, name: "ga " + name))
    return out


def la_nondescr_of_mutable_class(n):
    class V:
        pass
    class C:
        k = V()
    o = C()
    return loop(n, lambda: type(o.k).__name__,
                lambda: setattr(V, "__get__", lambda self, obj, tp: "got"))


def la_nondescr_no_dict_class_changes(n):
    # a plain class attribute read through a __slots__ instance (no dict): reassigned on the
    # class or a base, replaced by a descriptor (property, data descriptor on a base),
    # deleted, __getattr__ added, __class__ assigned (type version)
    class Base:
        __slots__ = ()
        k = 5
    class S(Base):
        __slots__ = ("a",)
    class T(Base):
        __slots__ = ("a",)
        k = "T's"
    class Data:
        def __get__(self, obj, tp):
            return "data get"
        def __set__(self, obj, value):
            pass
    o = S()
    out = loop(n, lambda: o.k, lambda: setattr(Base, "k", 6))
    out += loop(n, lambda: o.k, lambda: setattr(S, "k", "own"))
    out += loop(n, lambda: o.k, lambda: setattr(S, "k", property(lambda self: "prop")))
    out += loop(n, lambda: o.k, lambda: delattr(S, "k"))
    out += loop(n, lambda: o.k, lambda: setattr(Base, "k", Data()))
    out += loop(n, lambda: outcome(lambda: o.k), lambda: setattr(Base, "k", 7))
    out += loop(n, lambda: o.k, lambda: setattr(o, "__class__", T))
    out += loop(n, lambda: (o.k, outcome(lambda: o.zz)),
                lambda: setattr(T, "__getattr__", lambda self, name: "getattr " + name))
    out += loop(n, lambda: outcome(lambda: o.k), lambda: delattr(T, "k"))
    return out


def la_nondescr_no_dict_subclasses(n):
    # the same site meets a subclass with a slot of that name (a member descriptor shadows
    # the class attribute), a subclass with a __dict__ whose instance has its own value, and a
    # builtin instance without a dict (str's __doc__ -- another type)
    class S:
        __slots__ = ()
        k = "class"
    class WithSlot(S):
        __slots__ = ("k",)
    class WithDict(S):
        pass
    ws = WithSlot()
    wd = WithDict()
    wd.k = "instance's"
    vals = [(S(),), (ws,), (wd,), (S(),), (WithSlot(),)]
    def op(o):
        return outcome(lambda: o.k)
    out = phases(n // 2, vals, op)
    ws.k = "slot's"
    out += loop(n, lambda: (vals[1][0].k, vals[4][0].k if hasattr(vals[4][0], "k") else None),
                lambda: None)
    return out


def la_property_getter_code_replaced(n):
    class C:
        @property
        def p(self):
            return 1
    def other(self):
        return "other code"
    o = C()
    return loop(n, lambda: o.p, lambda: setattr(C.__dict__["p"].fget, "__code__", other.__code__))


def la_property_replaced(n):
    class C:
        @property
        def p(self):
            return 1
    o = C()
    out = loop(n, lambda: o.p, lambda: setattr(C, "p", "plain"))
    return out


def la_property_reinit(n):
    class C:
        @property
        def p(self):
            return 1
    o = C()
    prop = C.__dict__["p"]
    return loop(n, lambda: o.p, lambda: prop.__init__(lambda self: 2))


def la_property_reinit_to_builtin_and_none(n):
    class C:
        @property
        def p(self):
            return 1
    o = C()
    prop = C.__dict__["p"]
    out = loop(n, lambda: o.p, lambda: prop.__init__(len))
    out += loop(n, lambda: o.p, lambda: prop.__init__())
    return out


def la_property_borrowed(n):
    class A:
        @property
        def p(self):
            return type(self).__name__
    class B:
        p = A.__dict__["p"]          # a property works on any object
    objs = [A(), B()]
    state = [0]
    return loop(n, lambda: objs[state[0]].p, lambda: state.__setitem__(0, 1))


def la_getattribute_replaced(n):
    class C:
        def __getattribute__(self, name):
            return "first " + name
    o = C()
    out = loop(n, lambda: o.x, lambda: setattr(C, "__getattribute__",
                                               lambda self, name: "second " + name))
    out += loop(n, lambda: o.x, lambda: delattr(C, "__getattribute__"))
    return out


def la_getattribute_getattr_added(n):
    class C:
        def __getattribute__(self, name):
            raise AttributeError("no " + name)
    o = C()
    return loop(n, lambda: o.x,
                lambda: setattr(C, "__getattr__", lambda self, name: "fallback " + name))


def la_getattribute_code_replaced(n):
    class C:
        def __getattribute__(self, name):
            return "first " + name
    def other(self, name):
        return "other " + name
    o = C()
    return loop(n, lambda: o.x, lambda: setattr(C.__getattribute__, "__code__", other.__code__))


# ================= LOAD_METHOD =================
# guard: type version (+ shared keys version / no instance dict)

def lm_values_shadowed_by_instance(n):
    C = fresh_class()
    o = C()
    return loop(n, lambda: o.m(), lambda: setattr(o, "m", lambda: "instance attr"))


def lm_values_shadowed_by_other_instance(n):
    # another instance adds the key to the shared keys: the keys version moves
    C = fresh_class()
    o, p = C(), C()
    return loop(n, lambda: o.m(), lambda: setattr(p, "m", lambda: "p's"))


def lm_values_replaced_kinds(n):
    C = fresh_class()
    o = C()
    out = loop(n, lambda: o.m(), lambda: setattr(C, "m", staticmethod(lambda: "static")))
    out += loop(n, lambda: o.m(), lambda: setattr(C, "m", classmethod(lambda cls: cls.__name__)))
    out += loop(n, lambda: o.m(), lambda: setattr(C, "m", property(lambda self: lambda: "p")))
    out += loop(n, lambda: o.m(), lambda: delattr(C, "m"))
    return out


def lm_values_getattr_added(n):
    C = fresh_class()
    o = C()
    def change():
        del C.m
        C.__getattr__ = lambda self, name: lambda: "getattr " + name
    return loop(n, lambda: o.m(), change)


def lm_no_dict_replaced_and_class_assigned(n):
    class S:
        __slots__ = ()
        def m(self):
            return "S"
    class T:
        __slots__ = ()
        def m(self):
            return "T"
    o = S()
    out = loop(n, lambda: o.m(), lambda: setattr(S, "m", lambda self: "S2"))
    out += loop(n, lambda: o.m(), lambda: setattr(o, "__class__", T))
    return out


def lm_no_dict_builtin_subclass(n):
    class MyStr(str):
        __slots__ = ()
        def upper(self):
            return "overridden"
    vals = ["ab", MyStr("cd")]
    state = [0]
    return loop(n, lambda: vals[state[0]].upper(), lambda: state.__setitem__(0, 1))


def lm_lazy_dict_shadowed(n):
    class E(Exception):
        def m(self):
            return "method"
    e = E()
    return loop(n, lambda: e.m(), lambda: setattr(e, "m", lambda: "instance"))


def lm_with_dict_guards(n):
    # a method of an instance whose dict exists (materialized by vars(), and at a C base's
    # dict offset), then what the dict's keys version guards: the name set on the instance or
    # put in its dict, the dict replaced (a dict holding the name, a dict subclass), other
    # keys added (no shadow), the dict cleared, the method replaced on the class (last: the
    # class is shared by the changes)
    class C:
        def __init__(self):
            self.x = 1

        def m(self):
            return "method"

    class E(Exception):
        def m(self):
            return "emethod"

    class D(dict):
        pass

    changes = [
        lambda o: setattr(o, "m", lambda: "instance attribute"),
        lambda o: o.__dict__.__setitem__("m", lambda: "dict item"),
        lambda o: setattr(o, "__dict__", {"m": lambda: "new dict"}),
        lambda o: setattr(o, "__dict__", D(m=lambda: "dict subclass")),
        lambda o: o.__dict__.update({"other%d" % i: i for i in range(12)}),
        lambda o: o.__dict__.clear(),
        lambda o: setattr(type(o), "m", lambda self: "class method replaced"),
    ]
    out = []
    for make in (C, E):
        for change in changes:
            o = make()
            vars(o)["y"] = 2                   # the dict exists
            out += loop(n, lambda: o.m(), lambda: change(o))
    return out


def lm_class_method_replaced(n):
    class C:
        def f():
            return "f"
    out = loop(n, lambda: C.f(), lambda: setattr(C, "f", lambda: "g"))
    out += loop(n, lambda: C.f(), lambda: setattr(C, "f", classmethod(lambda cls: "cm")))
    return out


def lm_class_attr_of_mutable_class(n):
    class V:
        def __call__(self):
            return "V called"
    class C:
        x = V()
    return loop(n, lambda: C.x(), lambda: setattr(V, "__get__", lambda s, o, t: lambda: "bound"))


def lm_module_replaced_deleted(n):
    m = fresh_module(f=lambda: "f", g=lambda: "g")
    out = loop(n, lambda: m.f(), lambda: setattr(m, "f", lambda: "f2"))
    out += loop(n, lambda: m.g(), lambda: delattr(m, "g"))
    return out


# ================= STORE_ATTR =================
# guard: type version (+ inline values present / dict entry at the hint)

def sa_values_setattr_added(n):
    log = []
    class C:
        def __init__(self):
            self.x = 0
    o = C()
    def op():
        o.x = 5
        return o.x
    out = loop(n, op, lambda: setattr(C, "__setattr__",
                                      lambda self, k, v: log.append((k, v))))
    return out, log


def sa_values_property_added(n):
    class C:
        def __init__(self):
            self.x = 0
    o = C()
    def op():
        o.x = 5
        return o.x
    return loop(n, op, lambda: setattr(C, "x", property(lambda self: 1)))


def sa_values_class_attr_gains_set(n):
    log = []
    class V:
        pass
    class C:
        x = V()
    o = C()
    def op():
        o.x = 5
        return type(o.x).__name__
    return loop(n, op, lambda: setattr(V, "__set__", lambda s, obj, v: log.append(v))), log


def sa_hint_descriptor_added(n):
    class C:
        pass
    o = C()
    o.__dict__["x"] = 0              # materialized: STORE_ATTR_WITH_HINT
    attributes_in_dict_only(o)
    def op():
        o.x = 5
        return dict(o.__dict__)
    return loop(n, op, lambda: setattr(C, "x", property(lambda self: 1, lambda self, v: None)))


def sa_hint_in_place(n):
    """STORE_ATTR_WITH_HINT replaces the value in the dict's entry itself (no dict API):
    on a combined __dict__ (attributes added in another order than the class's shared keys
    allow) and on a split one (o.__dict__ materialized); the attribute deleted mid-loop (the
    split dict then inserts through the dict API, in insertion order); a container stored
    into a dict the collector does not track yet (it must then track it)."""
    import gc

    class C:
        def __init__(self, first):
            if first:
                self.a = 0
                self.b = 0
            else:
                self.b = 0
                self.a = 0
    combined = [C(True), C(False)]       # the second order does not fit the shared keys
    split = C(True)
    attributes_in_dict_only(split)      # materialized, sharing the class's keys (3.13: a copy)
    objs = combined + [split]
    i = [0]

    def op():
        i[0] += 1
        out = []
        for o in objs:
            o.a = i[0]
            # a list: the collector never untracks it (a tuple of ints it may, and the dict
            # with it, whenever a collection happens to run); a dict of ints only is tracked
            # or not by the collections that happened to run: not compared
            o.b = [i[0]] if i[0] % 2 else i[0]
            out.append((list(o.__dict__.items()), gc.is_tracked(o.__dict__) if i[0] % 2 else None))
        return out

    def change():
        for o in objs:
            del o.a
    return loop(n, op, change)


def sa_hint_dict_version_moves(n):
    """PEP 509: every store through STORE_ATTR_WITH_HINT gives the dict a tag it never had
    (read with ctypes: ma_version_tag follows ma_used in PyDictObject)."""
    import ctypes

    class C:
        pass
    o = C()
    o.__dict__["x"] = 0
    d = attributes_in_dict_only(o)
    tag = ctypes.c_uint64.from_address(id(d) + 3 * ctypes.sizeof(ctypes.c_void_p))
    seen = {tag.value}

    def op():
        o.x = len(seen)
        new = tag.value
        fresh = new not in seen
        seen.add(new)
        return fresh, o.x
    return loop(n, op, lambda: None)


def sa_slot_replaced(n):
    class S:
        __slots__ = ("a",)
    o = S()
    def op():
        o.a = 5
        return o.a
    out = loop(n, op, lambda: setattr(S, "a", property(lambda self: "ro")))
    return out


def sa_slot_setattr_added(n):
    log = []
    class S:
        __slots__ = ("a",)
    o = S()
    def op():
        o.a = 5
        return getattr(o, "a", None)
    return loop(n, op, lambda: setattr(S, "__setattr__", lambda s, k, v: log.append(k))), log


# ================= LOAD_GLOBAL =================
# guard: globals keys version (+ builtins keys version)

def lg_module_rebound_deleted(n):
    g = {"x": 1, "__builtins__": builtins}
    exec("def f():\n    return x\n", g)
    f = g["f"]
    def op():
        return f()
    out = loop(n, op, lambda: g.__setitem__("x", 2))
    out += loop(n, op, lambda: g.__delitem__("x"))
    return out


def lg_builtin_deleted_and_shadowed(n):
    g = {"__builtins__": builtins}
    exec("def f():\n    return abs(-3)\n", g)
    f = g["f"]
    original = builtins.abs
    try:
        out = loop(n, f, lambda: delattr(builtins, "abs"))
        builtins.abs = original
        out += loop(n, f, lambda: g.__setitem__("abs", lambda x: "global abs"))
    finally:
        builtins.abs = original
    return out


def lg_globals_is_instance_dict(n):
    # globals whose keys are an instance's shared keys (a split dict)
    class NS:
        def __init__(self):
            self.x = 1
            self.__builtins__ = builtins
    ns = NS()
    exec("def f():\n    return x\n", ns.__dict__)
    f = ns.__dict__["f"]
    return loop(n, f, lambda: setattr(ns, "x", 2))


# ================= BINARY_OP / COMPARE_OP: exact types =================

def bo_int_subclass(n):
    class I(int):
        def __add__(self, other):
            return "I.__add__"
        def __sub__(self, other):
            return "I.__sub__"
        def __mul__(self, other):
            return "I.__mul__"
        def __and__(self, other):
            return "I.__and__"
        def __floordiv__(self, other):
            return "I.__floordiv__"
    vals = [3, I(3)]
    s = [0]
    def op():
        a = vals[s[0]]
        return (a + 2, a - 2, a * 2, a & 2, a // 2, a % 2, 2 + a)
    return loop(n, op, lambda: s.__setitem__(0, 1))


def bo_int_edges(n):
    vals = [(7, 2), (2 ** 40, 2 ** 40), (-7, 2), (7, 0), (True, True), (-(2 ** 29), -(2 ** 29))]
    def op(a, b):
        return (a + b, a - b, a * b, a & b, a | b, a ^ b, outcome(lambda: a // b),
                outcome(lambda: a % b))
    return phases(n // 4, vals, op)


def bo_int_two_digits(n):
    """Exact ints of up to two digits (|x| < 2**60) are computed in C by the int forms and
    by `//`, `%`, `<<`, `>>`: boundaries of the digit count, signs (floor rounding),
    products and left shifts that overflow a C long, negative and huge shift counts, zero
    divisors and wider ints, which take int's own slot or the generic path."""
    d = 2 ** 30
    vals = [(2 ** 32 - 1, 85), (-(2 ** 40) - 3, 7), (2 ** 40 + 5, -(2 ** 31)), (d, d),
            (-d, d - 1), (d - 1, -d), (2 ** 60 - 1, 2 ** 60 - 1), (-(2 ** 60) + 1, 3),
            (2 ** 60, 2), (2 ** 59, 0), (7, -3), (-7, 3), (-7, -3), (-(2 ** 45), -(2 ** 31) - 1),
            (0, 2 ** 35), (2 ** 35, 64), (-(2 ** 35), 70), (5, 58), (5, 59), (-5, 60), (1, 62),
            (1, 63), (-1, 63), (-(2 ** 59), 1), (3, -1), (2 ** 100, 2), (2, 2 ** 100), (True, 3),
            (2 ** 31 + 7, 2 ** 31 + 7)]
    def op(a, b):
        x = a
        x >>= 1
        x += b
        return (a + b, a - b, a * b, a & b, a | b, a ^ b, x, outcome(lambda: a // b),
                outcome(lambda: a % b), outcome(lambda: a >> b),
                outcome(lambda: a << b) if b < 200 else None)
    return phases(n // 4, vals, op)


def bo_float_subclass_and_edges(n):
    class F(float):
        def __add__(self, other):
            return "F.__add__"
        def __truediv__(self, other):
            return "F.__truediv__"
    vals = [(1.5, 2.0), (F(1.5), 2.0), (1.5, 0.0), (1.5, -0.0), (float("inf"), float("inf")),
            (1.5, 2)]
    def op(a, b):
        return (outcome(lambda: a + b), a - b, a * b, outcome(lambda: a / b))
    return phases(n // 4, vals, op)


def bo_numeric_mixed(n):
    # int and float mixed (and int / int): bool, subclasses, big ints, division by zero,
    # NaN and other types take the generic path
    class I(int):
        def __add__(self, other):
            return "I.__add__"
        def __rsub__(self, other):
            return "I.__rsub__"
    class F(float):
        def __mul__(self, other):
            return "F.__mul__"
    vals = [(1.5, 2), (2, 1.5), (3, 4), (7, 2), (1.0, 0), (5, 0), (0, -0.0), (2 ** 40, 1.5),
            (1.5, -(2 ** 31)), (True, 1.5), (1.5, False), (I(2), 1.5), (1.5, I(3)), (F(1.5), 2),
            (float("nan"), 3), (-7, float("inf")), (2 ** 29, 1e300), ("a", 1), (2, "a"),
            (2 ** 30 - 1, 2 ** 30 - 1)]
    def op(a, b):
        def inplace():
            x = a
            x += b
            x -= b
            return x
        return (outcome(lambda: a + b), outcome(lambda: a - b), outcome(lambda: a * b),
                outcome(lambda: a / b), outcome(inplace))
    return phases(n // 2, vals, op)


def co_numeric_mixed(n):
    class I(int):
        def __lt__(self, other):
            return "I.__lt__"
    vals = [(1.5, 2), (2, 1.5), (3, 3.0), (float("nan"), 1), (1, float("inf")),
            (-(2 ** 29), -0.5), (2 ** 53 + 1, float(2 ** 53)), (2 ** 40, 1.0), (True, 0.5),
            (I(1), 2.5), (0.5, I(1)), ("a", 1), (1.5, None)]
    def op(a, b):
        def jump():
            if a < b:
                return "lt"
            return "not lt"
        return (outcome(lambda: (a < b, a <= b, a == b, a != b, a > b, a >= b)),
                outcome(jump))
    return phases(n // 2, vals, op)


def bo_str_subclass(n):
    class S(str):
        def __add__(self, other):
            return "S.__add__"
        def __radd__(self, other):
            return "S.__radd__"
    vals = [("a", "b"), (S("a"), "b"), ("a", S("b")), ("a", 1)]
    def op(a, b):
        return outcome(lambda: a + b)
    return phases(n // 2, vals, op)


def bo_inplace_unicode_aliased(n):
    out = []
    s = ""
    alias = None
    for i in range(n):
        if i == n // 2:
            alias = s                # a second reference: no longer extended in place
        s += "x"
        out.append((len(s), len(alias) if alias is not None else None))
    return out


def co_subclasses_and_edges(n):
    class I(int):
        def __eq__(self, other):
            return "I.__eq__"
        def __lt__(self, other):
            return "I.__lt__"
        __hash__ = int.__hash__
    class S(str):
        def __eq__(self, other):
            return "S.__eq__"
        __hash__ = str.__hash__
    nan = float("nan")
    vals = [(1, 2, 1.0, 2.0, "a", "b"), (I(1), 2, nan, nan, S("a"), "a"),
            (2 ** 40, 2 ** 40, -0.0, 0.0, "a", S("a")), (1, 1.0, 1.0, 1, "a", 1)]
    def op(a, b, x, y, p, q):
        r = [a == b, a < b, x == y, x < y, x != y, p == q, p != q]
        if a < b:
            r.append("lt")
        if x == y:
            r.append("feq")
        if p == q:
            r.append("seq")
        return r
    return phases(n // 2, vals, op)


# ================= BINARY_SUBSCR / STORE_SUBSCR / UNPACK_SEQUENCE: exact types =================

def bs_containers(n):
    class L(list):
        def __getitem__(self, i):
            return "L[%r]" % (i,)
    class T(tuple):
        def __getitem__(self, i):
            return "T[%r]" % (i,)
    class D(dict):
        def __missing__(self, k):
            return "missing %r" % (k,)
    vals = [([1, 2], (1, 2), {"k": 1}, 1, "k"), (L([1, 2]), T((1, 2)), D(), 1, "k"),
            ([1, 2], (1, 2), {}, 5, "k"), ([1, 2], (1, 2), {}, -1, ["unhashable"]),
            ([1, 2], (1, 2), {True: "t"}, 2 ** 40, 1)]
    def op(lst, tup, d, i, k):
        return (outcome(lambda: lst[i]), outcome(lambda: tup[i]), outcome(lambda: d[k]))
    return phases(n // 2, vals, op)


def bs_getitem_guards(n):
    class C:
        def __getitem__(self, i):
            return "first %r" % (i,)
    def other(self, i):
        return "other code %r" % (i,)
    o = C()
    out = loop(n, lambda: o[1], lambda: setattr(C.__getitem__, "__code__", other.__code__))
    out += loop(n, lambda: o[1], lambda: setattr(C, "__getitem__", lambda self, i: "second"))
    out += loop(n, lambda: o[1], lambda: setattr(C, "__getitem__", lambda self, i, j=0: "dflt"))
    out += loop(n, lambda: o[1], lambda: delattr(C, "__getitem__"))
    return out


def bs_getitem_class_assigned(n):
    class A:
        def __getitem__(self, i):
            return "A"
    class B:
        def __getitem__(self, i):
            return "B"
    o = A()
    return loop(n, lambda: o[0], lambda: setattr(o, "__class__", B))


def ss_containers(n):
    log = []
    class L(list):
        def __setitem__(self, i, v):
            log.append(("L", i, v))
    class D(dict):
        def __setitem__(self, k, v):
            log.append(("D", k, v))
    vals = [([0, 0], {}, 1, "k"), (L([0, 0]), D(), 1, "k"), ([0, 0], {}, 7, ["unhashable"]),
            ([0, 0], {}, -1, 1)]
    def op(lst, d, i, k):
        def store_list():
            lst[i] = 9
            return list(lst)
        def store_dict():
            d[k] = 9
            return dict(d)
        return (outcome(store_list), outcome(store_dict))
    return phases(n // 2, vals, op), log


def bs_array(n):
    import array
    class A(array.array):
        def __getitem__(self, i):
            return "A[%r]" % (i,)
    class Index:
        def __index__(self):
            return 1
    d = array.array("d", [0.5, 1.5, 2.5])
    vals = [(d, array.array("i", [1, 2, 3]), 1), (d, array.array("b", [-1, 2, 3]), 2),
            (A("d", [1.0, 2.0]), array.array("u", "abc"), 1),
            (d, array.array("q", [2 ** 40, 1]), -1), (d, array.array("i", [1]), 3),
            (d, array.array("L", [1, 2]), 2 ** 40), (d, array.array("f", [0.25, 1]), True),
            (d, array.array("d"), Index()), (d, array.array("H", [7]), 1.0),
            (d, array.array("B", [1, 2, 3]), slice(0, 2)), ([1, 2], (1, 2), 0)]
    def op(a, b, i):
        return (outcome(lambda: a[i]), outcome(lambda: b[i]))
    return phases(n // 2, vals, op)


def bs_str_int(n):
    # a latin-1 str at a small int index, then: a wider str (at an ASCII and a non-latin-1
    # character), negative and out-of-range indexes (IndexError), a big int, a str subclass
    # with its own __getitem__ and one without, a bool index, an int subclass index, an
    # __index__ object, a slice, and back to a latin-1 str
    class MyStr(str):
        def __getitem__(self, i):
            return "MyStr[%r]" % (i,)
    class PlainSub(str):
        pass
    class I(int):
        pass
    class Index:
        def __index__(self):
            return 1
    vals = [("ab\xe9\xff", 2), ("a\u20ac\U0001f600", 0), ("a\u20ac\U0001f600", 1),
            ("ab\xe9", -1), ("ab\xe9", 3), ("", 0), ("ab\xe9", 2 ** 40), (MyStr("abc"), 1),
            (PlainSub("abc"), 1), ("abc", True), ("abc", I(2)), ("abc", Index()),
            ("abc", slice(1, 3)), ("abc", 1.0), ("x\xe9y", 1)]
    def op(s, i):
        r = outcome(lambda: s[i])
        # a latin-1 character is the runtime's one-character str, as chr() gives it
        return r, type(r).__name__, len(r) == 1 and r is chr(ord(r))
    return phases(n // 2, vals, op)


def ss_array(n):
    import array
    log = []
    class A(array.array):
        def __setitem__(self, i, v):
            log.append(("A", i, v))
    class F(float):
        pass
    class Index:
        def __index__(self):
            return 7
    def fresh(code, size=3):
        return array.array(code, [0] * size)
    vals = [("d", 1, 0.5), ("d", 1, 2), ("d", 2, F(1.25)), ("d", 1, "x"), ("i", 1, 3),
            ("i", 1, 1.5), ("b", 0, 300), ("i", 1, Index()), ("d", 3, 1.0), ("d", -1, 1.0),
            ("d", 2 ** 40, 1.0), ("u", 1, "z"), ("Q", 0, -1), ("A", 1, 1.0), ("d", True, 7.0),
            ("list", 1, 1.0)]
    def op(code, i, v):
        def store():
            a = A("d", [0.0, 0.0]) if code == "A" else [0, 0] if code == "list" else fresh(code)
            a[i] = v
            return a.tolist() if hasattr(a, "tolist") else list(a)
        return outcome(store)
    return phases(n // 2, vals, op), log


def us_sequences(n):
    class T(tuple):
        def __iter__(self):
            return iter(("T", "iter"))
    class L(list):
        def __iter__(self):
            return iter(("L", "iter"))
    vals = [((1, 2), (1, 2, 3), [1, 2]), (T((1, 2)), T((1, 2, 3)), L([1, 2])),
            ((1, 2, 3), (1, 2), [1, 2, 3]), ((1,), [1, 2, 3], (1, 2))]
    def op(t2, t3, l2):
        def two():
            a, b = t2
            return a, b
        def three():
            a, b, c = t3
            return a, b, c
        def lst():
            a, b = l2
            return a, b
        return (outcome(two), outcome(three), outcome(lst))
    return phases(n // 2, vals, op)


# ================= CALL =================
# guards: function version (code, defaults), class version, identity of the builtin

def call_py_code_and_defaults(n):
    def f(a, b):
        return ("f", a, b)
    def g(a, b=2):
        return ("g", a, b)
    def three(a, b, c):
        return ("three", a, b, c)
    def kwonly(a, b=1, *, c):
        return ("kwonly", a, b, c)
    def gen(a, b=5):
        yield (a, b)
    out = loop(n, lambda: f(1, 2), lambda: setattr(f, "__code__", three.__code__))
    out += loop(n, lambda: g(1), lambda: setattr(g, "__defaults__", None))
    g.__defaults__ = (2,)
    out += loop(n, lambda: g(1), lambda: setattr(g, "__defaults__", (3,)))
    out += loop(n, lambda: g(1), lambda: setattr(g, "__kwdefaults__", {"c": 4}))
    out += loop(n, lambda: g(1), lambda: setattr(g, "__code__", kwonly.__code__))
    out += loop(n, lambda: str(f(1, 2, 3)), lambda: setattr(f, "__code__", gen.__code__))
    return out


def call_py_varargs_shape_changed(n):
    # CALL_PY_VARARGS binds positional arguments into *args and an empty **kwargs; the
    # function's version guards its shape: __code__ replaced by one without *args (too many
    # arguments now), with a keyword-only parameter, with one more required parameter, by a
    # generator's; __defaults__ (no effect on a call that fills every parameter); and the
    # receiver: a bound method (one argument more) where a plain function was
    def star(a, *args, **kwargs):
        return ("star", a, args, sorted(kwargs))
    def kw_only(a, **kwargs):
        return ("kw_only", a, sorted(kwargs))
    def pair(a, b):
        return ("pair", a, b)
    def kwo(a, *args, c):
        return ("kwo", a, args, c)
    def three(a, b, c, *args):
        return ("three", a, b, c, args)
    def gen(a, *args):
        yield (a, args)
    out = loop(n, lambda: star(1, 2), lambda: setattr(star, "__code__", pair.__code__))
    out += loop(n, lambda: kw_only(1), lambda: setattr(kw_only, "__code__", star.__code__))
    def s2(a, *args, **kwargs):
        return ("s2", a, args, sorted(kwargs))
    out += loop(n, lambda: s2(1, 2, 3), lambda: setattr(s2, "__code__", kwo.__code__))
    def s3(a, *args, **kwargs):
        return ("s3", a, args)
    out += loop(n, lambda: s3(1, 2), lambda: setattr(s3, "__code__", three.__code__))
    def s4(a, *args):
        return ("s4", a, args)
    out += loop(n, lambda: s4(1), lambda: setattr(s4, "__defaults__", (9,)))
    out += loop(n, lambda: str(s4(1, 2))[:10], lambda: setattr(s4, "__code__", gen.__code__))
    def s5(a, **kwargs):
        return ("s5", a, kwargs)
    class K:
        pass
    holder = K()
    holder.f = s5
    out += loop(n, lambda: holder.f(1), lambda: setattr(K, "f", s5) or delattr(holder, "f"))
    return out


def call_py_keyword_only_defaults_change(n):
    # CALL_PY_VARARGS binds keyword-only parameters from __kwdefaults__, read at each call (the
    # dict changes in place without a new function version) and positional ones from
    # __defaults__ (which the version guards): a default changed, removed (CPython's
    # "missing keyword-only argument" error), a key that is not a str (its lookups could run
    # code: the generic binder takes those), the dict replaced or set to None, __defaults__
    # emptied, and a *args function called with fewer arguments than parameters
    def f(a, b=2, *, key="k", rev=False):
        return ("f", a, b, key, rev)
    out = loop(n, lambda: f(1), lambda: f.__kwdefaults__.__setitem__("key", "changed"))
    out += loop(n, lambda: f(1, 3), lambda: f.__kwdefaults__.pop("rev"))
    def g(a, *, key=None):
        return ("g", a, key)
    out += loop(n, lambda: g(1), lambda: g.__kwdefaults__.__setitem__(1, "int key"))
    def h(a, *, key=None, other=0):
        return ("h", a, key, other)
    out += loop(n, lambda: h(1), lambda: setattr(h, "__kwdefaults__", {"key": 5, "other": 6}))
    def h2(a, *, key=None):
        return ("h2", a, key)
    out += loop(n, lambda: h2(1), lambda: setattr(h2, "__kwdefaults__", None))
    def k(a, b=2, *args, key=3, **kw):
        return ("k", a, b, args, key, sorted(kw))
    out += loop(n, lambda: k(1), lambda: setattr(k, "__defaults__", ()))
    out += loop(n, lambda: k(1, 2, 3, 4), lambda: k.__kwdefaults__.clear())
    class K:
        def m(self, x, *, scale=2):
            return ("m", x * scale)
    obj = K()
    out += loop(n, lambda: obj.m(3), lambda: K.m.__kwdefaults__.__setitem__("scale", 10))
    return out


def call_py_callable_replaced(n):
    def f(a):
        return ("f", a)
    class K:
        def __init__(self, a):
            self.a = a
    table = {"f": f}
    out = loop(n, lambda: table["f"](1), lambda: table.__setitem__("f", K))
    out = [o if not isinstance(o, K) else ("K", o.a) for o in out]
    out += loop(n, lambda: table["f"](1), lambda: table.__setitem__("f", abs))
    out += loop(n, lambda: table["f"](1), lambda: table.__setitem__("f", lambda *a: a))
    return out


def call_py_polymorphic(n):
    # one call site, the methods of several classes: up to four function versions; a fifth
    # function, one whose code or defaults change (its version), one of another shape, a
    # generator function and a builtin take the generic path
    def make(tag):
        class C:
            def m(self, x):
                return (self.tag, x)
        C.tag = tag
        return C()
    objs = [make(t) for t in "abcd"]
    fifth = make("e")
    def gen(self, x):
        yield x
    def two(self, x, y=2):
        return ("two", x, y)
    def other(self, x):
        return ("other code", x)
    state = [4]
    def op():
        return [o.m(i) for i, o in enumerate(objs[:state[0]])]
    def call():
        r = op()
        return [list(v) if hasattr(v, "__next__") else v for v in r]
    out = loop(n, call, lambda: objs.append(fifth) or state.__setitem__(0, 5))
    out += loop(n, call, lambda: setattr(type(objs[1]).m, "__code__", other.__code__))
    out += loop(n, call, lambda: setattr(type(objs[2]), "m", two))
    out += loop(n, call, lambda: setattr(type(objs[3]), "m", gen))
    out += loop(n, call, lambda: setattr(type(objs[0]), "m", staticmethod(abs)))
    return out


def call_py_polymorphic_defaults(n):
    # one site calling functions that take all their arguments and functions that fill the
    # rest from their defaults (copy.deepcopy's `copier(x, memo)`); then defaults removed,
    # too short for the call, and a function taking *args at the site
    def atomic(x, memo):
        return ("atomic", x)
    def seq(x, memo, tag="seq"):
        return (tag, x)
    def mapping(x, memo, tag="map", extra=1):
        return (tag, x, extra)
    table = [seq, atomic, mapping]
    def op():
        return [f(i, None) for i, f in enumerate(table)]
    out = loop(n, op, lambda: setattr(seq, "__defaults__", None))
    seq.__defaults__ = ("seq",)
    out += loop(n, op, lambda: setattr(mapping, "__defaults__", ("one",)))
    mapping.__defaults__ = ("map", 2)
    out += loop(n, op, lambda: table.append(lambda x, memo, *rest: ("star", x, rest)))
    return out


def call_py_defaults_varying_receiver(n):
    # CALL_PY_WITH_DEFAULTS holding functions of the same minimum, at a site whose argument
    # count changes: `o.m(1)` with m a method (self and one argument) and then a function
    # stored on the instance (one argument): the defaults fill what is missing either way
    def m(self_or_x, x=10, y=20):
        return ("m", x, y)
    def plain(a, b=1, c=2):
        return ("plain", a, b, c)
    class K:
        pass
    K.m = m
    o = K()
    out = loop(n, lambda: o.m(1), lambda: setattr(o, "m", m))
    out += loop(n, lambda: o.m(1), lambda: setattr(o, "m", plain))
    return out


def test_call_site_holds_functions_with_and_without_defaults():
    """One call site calling a function that takes all its arguments and two that fill the
    rest from their defaults, with the same number of required parameters (copy.deepcopy's
    `copier(x, memo)`): whichever it met first, once warm every call runs inline, with no
    miss (a site of functions without defaults becomes CALL_PY_WITH_DEFAULTS at the first
    function with defaults)."""
    def atomic(x, memo):
        return x
    def seq(x, memo, tag=1):
        return x + tag
    def mapping(x, memo, tag=2, extra=3):
        return x + tag + extra
    for table in ([seq, atomic, mapping], [atomic, seq, mapping]):
        def run(n):
            t = 0
            for i in range(n):
                for f in table:
                    t += f(i, None)
            return t
        pyadapt.configure(specialize=True, warmup=2)
        pyadapt.run(run, 10)
        pyadapt.reset_stats()
        assert pyadapt.run(run, 100) == run(100)
        st = pyadapt.stats()["specialized"]
        assert st["CALL_PY_WITH_DEFAULTS"]["hits"] == 300, (table, st)
        assert st["CALL_PY_WITH_DEFAULTS"]["misses"] == 0


def call_py_class_guards(n):
    class C:
        def __init__(self, a):
            self.a = a
    def show(o):
        return (type(o).__name__, vars(o) if hasattr(o, "__dict__") else o)
    out = loop(n, lambda: show(C(1)), lambda: setattr(C, "__init__",
                                                      lambda self, a: setattr(self, "b", a)))
    out += loop(n, lambda: show(C(1)), lambda: setattr(C, "__init__", lambda self, a: 42))
    out += loop(n, lambda: show(C(1)), lambda: setattr(C, "__new__",
                                                       staticmethod(lambda cls, a: "new")))
    del C.__new__
    C.__init__ = lambda self, a: None
    out += loop(n, lambda: show(C(1)), lambda: delattr(C, "__init__"))
    return out


def call_py_class_init_code_replaced(n):
    class C:
        def __init__(self, a):
            self.a = a
    def other(self, a, b):
        self.b = b
    return loop(n, lambda: vars(C(1)), lambda: setattr(C.__init__, "__code__", other.__code__))


def call_py_class_abstract(n):
    class C:
        def __init__(self, a):
            self.a = a
    return loop(n, lambda: vars(C(1)), lambda: setattr(C, "__abstractmethods__",
                                                       frozenset({"m"})))


def call_builtins_rebound(n):
    g = {"__builtins__": builtins}
    exec("def f(x):\n    return (type(x), str(x), tuple(x), len(x), isinstance(x, str))\n", g)
    f = g["f"]
    out = loop(n, lambda: f("ab"), lambda: g.update(type=lambda x: "type", str=lambda x: "str",
                                                   tuple=lambda x: "tuple", len=lambda x: -1,
                                                   isinstance=lambda x, t: "isinstance"))
    return [repr(o) for o in out]


def call_simple_forms_other_shapes(n):
    """len(x), isinstance(x, c), type(x) and l.append(x) have their forms in one shape each,
    as CPython's: once specialized, the same sites get other shapes -- a bound method of len,
    of isinstance and of type (unpacked: the builtin under its bound argument), list.append
    reached through a class attribute by an object that is no list -- and give native results
    through the generic CALL."""
    class NotList:
        append = list.append

    lst = []

    def op(f_len, f_inst, f_type, recv):
        return (outcome(lambda: f_len("abc")), outcome(lambda: f_inst(3, int)),
                outcome(lambda: f_type(1.5)), outcome(lambda: recv.append(1)), len(lst))

    vals = [(len, isinstance, type, lst),
            (types.MethodType(len, "xyzw"), types.MethodType(isinstance, 3),
             types.MethodType(type, "s"), NotList()),
            (len, isinstance, type, lst)]
    return [repr(o) for o in phases(n, vals, op)]


def call_builtins_subclass_arguments(n):
    class S(str):
        def __str__(self):
            return "S.__str__"
        def __len__(self):
            return 99
        def __iter__(self):
            return iter("it")
    class Meta(type):
        def __instancecheck__(cls, obj):
            return "instancecheck"
    class Any(metaclass=Meta):
        pass
    class BadLen:
        def __len__(self):
            return -1
        def __repr__(self):
            return "BadLen()"
    vals = [("ab", str), (S("ab"), str), ("ab", Any), (BadLen(), int)]
    def op(x, t):
        return (type(x).__name__, outcome(lambda: str(x)), outcome(lambda: tuple(x)),
                outcome(lambda: len(x)), isinstance(x, t))
    return phases(n // 2, vals, op)


def call_c_functions_rebound(n):
    g = {"__builtins__": builtins}
    exec("def f(x):\n"
         "    return (abs(x), divmod(x, 2), sorted([x, 0], reverse=True), list(range(x)))\n", g)
    f = g["f"]
    return loop(n, lambda: f(3), lambda: g.update(abs=repr, divmod=max,
                                                  sorted=lambda *a, **k: k,
                                                  range=lambda x: "range"))


def call_method_descriptors_receivers(n):
    class S(str):
        def upper(self):
            return "S.upper"
    class L(list):
        def append(self, x):
            super().append(("wrapped", x))
    class Borrower:
        upper = str.upper
        replace = str.replace
        split = str.split
        find = str.find
        append = list.append
    vals = [("ab", []), (S("ab"), L()), (Borrower(), Borrower())]
    # METH_FASTCALL without keywords: str.replace up to 3.12, str.find from 3.13 on (3.13
    # gave replace a `count` keyword and find Argument Clinic's positional fast call)
    def op(x, lst):
        return (outcome(lambda: x.upper()), outcome(lambda: x.replace("a", "b")),
                outcome(lambda: x.find("b", 0)),
                outcome(lambda: x.split("a", maxsplit=1)),
                outcome(lambda: str.upper(x)), outcome(lambda: str.replace(x, "a", "b")),
                outcome(lambda: "-".join(["a", "b"])), outcome(lambda: lst.append(1)),
                outcome(lambda: list.append(lst, 2)))
    return phases(n // 2, vals, op)


def call_builtin_class_rebound(n):
    class MyList(list):
        def __init__(self, it):
            super().__init__(it)
            self.tag = "MyList.__init__"
    table = {"k": list}
    out = loop(n, lambda: table["k"]((1, 2)), lambda: table.__setitem__("k", MyList))
    return [(type(o).__name__, list(o), getattr(o, "tag", None)) for o in out]


def call_non_py_general_callables_change(n):
    # callables no other form takes, one after the other at two sites (positional, with a
    # keyword), and then a Python function: CALL_NON_PY_GENERAL's guard
    import functools

    class Callable:
        def __call__(self, x, y=0):
            return ("call", x, y)

    class Raiser:
        def __call__(self, x, y=0):
            raise ValueError("raised at %r" % (x,))

    class OwnNew:
        def __new__(cls, x, y=0):
            return ("new", x, y)

    def py(x, y=0):
        return ("py", x, y)

    callables = [Callable(), functools.partial(lambda a, x, y=0: ("partial", a, x, y), "a"),
                 OwnNew, Raiser(), max, py, Callable(), 5, Callable()]
    return phases(n, [(c,) for c in callables],
                  lambda c: (outcome(lambda: c(1)), outcome(lambda: c(2, y=3))))


# ================= FOR_ITER / SEND: exact iterator types =================

def fi_iterables_change(n):
    class L(list):
        def __iter__(self):
            return iter(("L", "iter"))
    class T(tuple):
        pass
    def gen():
        yield "g"
        yield "h"
    class It:
        def __init__(self):
            self.i = 0
        def __iter__(self):
            return self
        def __next__(self):
            self.i += 1
            if self.i > 2:
                raise StopIteration
            return "It%d" % self.i
    half = n // 2
    out = []
    # each loop below is its own FOR_ITER site: the exact type first, then the others
    for it in [[1, 2]] * half + [L([1, 2]), (1, 2), gen(), It(), iter([1, 2])] * 2:
        for x in it:
            out.append(x)
    for it in [(1, 2)] * half + [T((1, 2)), [1, 2], range(2), gen(), It()] * 2:
        for x in it:
            out.append(x)
    for it in [range(2)] * half + [range(2 ** 62, 2 ** 62 + 2), range(-3, -1), (1, 2), It()] * 2:
        for x in it:
            out.append(x)
    for it in [gen() for _ in range(half)] + [iter((1, 2)), It(), [3]] * 2:
        for x in it:
            out.append(x)
    running = gen()
    for x in running:                # a generator already finished, or running
        out.append((x, outcome(lambda: next(running))))
    return out


def send_receivers_change(n):
    def inner():
        x = yield 1
        return ("inner", x)
    class Awaitable:
        def __iter__(self):
            return iter((1,))
    def outer(make):
        r = yield from make()
        return r
    kinds = [inner, Awaitable, inner, lambda: iter([1, 2])]
    out = []
    for i in range(n):
        g = outer(kinds[i * len(kinds) // n])
        r = []
        try:
            r.append(next(g))
            r.append(g.send("sent"))
        except StopIteration as e:
            r.append(("stop", e.value))
        except Exception as e:  # noqa: BLE001 - compared: type and message
            r.append("%s: %s" % (type(e).__name__, e))
        out.append(r)
    return out


def fi_lists_and_tuples(n):
    # one loop over lists and tuples in turn (pprint's `for o in object`), then other
    # sequences and a list emptied, grown and replaced while it is iterated
    out = []
    seqs = [[1, 2], (3, 4), [], (), [5], (6,)]
    for i in range(n):
        for x in seqs[i % len(seqs)]:
            out.append(x)
    grow = [1, 2, 3]
    for x in grow:
        if len(grow) < 8:
            grow.append(x * 10)
        out.append(x)
    shrink = [1, 2, 3, 4]
    for x in shrink:
        shrink.clear()
        out.append(x)
    for seq in ["ab", b"cd", range(2), {7: 8}, bytearray(b"e")]:
        for x in seq:
            out.append(x)
    return out


def test_for_iter_takes_lists_and_tuples_at_one_site():
    """FOR_ITER_LIST and FOR_ITER_TUPLE each take the other's iterator: a loop over lists and
    tuples in turn hits every time, with no miss or deopt."""
    check(fi_lists_and_tuples, (60,))
    pyadapt.configure(specialize=True, warmup=2)
    pyadapt.run(fi_lists_and_tuples, 12)
    pyadapt.reset_stats()
    assert pyadapt.run(fi_lists_and_tuples, 600) == fi_lists_and_tuples(600)
    st = pyadapt.stats()["specialized"]
    forms = {f: st[f] for f in ("FOR_ITER_LIST", "FOR_ITER_TUPLE") if st[f]["hits"]}
    assert forms, st
    assert sum(f["hits"] for f in forms.values()) >= 600, forms
    assert all(f["misses"] == 0 and f["deopts"] == 0 for f in forms.values()), forms


def fi_iternext_types_change(n):
    """FOR_ITER_ITERNEXT: one loop over enumerate first, then every other kind of iterator at
    the same site (ones with forms of their own, a class whose __next__ is replaced on the
    class mid-loop, a __next__ raising, a StopIteration with a value)."""
    class Counter:
        def __init__(self):
            self.i = 0
        def __iter__(self):
            return self
        def __next__(self):
            self.i += 1
            if self.i > 2:
                raise StopIteration("done")
            return "C%d" % self.i
    class Raising:
        def __iter__(self):
            return self
        def __next__(self):
            raise ValueError("no next")
    def gen():
        yield "g"
    half = n // 2
    def replace_next():
        def other(self):
            self.i += 10
            if self.i > 25:
                raise StopIteration
            return "other%d" % self.i
        Counter.__next__ = other
    out = []
    d = {"a": 1, "b": 2}
    makers = [lambda: enumerate("ab")] * half + [
        lambda: reversed([1, 2]), lambda: iter(d.items()), lambda: iter(d.values()),
        lambda: iter(d), lambda: zip("ab", "cd"), lambda: map(str, (1, 2)),
        lambda: iter({3}), lambda: iter(frozenset({4})), lambda: iter([5, 6]),
        lambda: iter((7,)), lambda: iter(range(2)), gen, Counter, replace_next, Counter,
        Raising, lambda: iter("xy"), lambda: enumerate([8])]
    for make in makers:
        it = make()
        if it is None:
            continue
        try:
            for x in it:
                out.append(x)
        except ValueError as e:
            out.append("ValueError: %s" % e)
    return out


def call_py_function_made_per_call(n):
    """CALL_PY_EXACT_ARGS at a call of a nested function made anew at each iteration (one
    version for its code's functions made without defaults): then __code__ replaced by a body
    of the same and of another arity, __defaults__ given, a function of other code, and a
    closure over another cell."""
    def bodies():
        i = None                       # one free variable, as f's
        return ((lambda x: ("other body", x, i)).__code__,
                (lambda x, y: ("two", x, y, i)).__code__)
    other_body, two_args = bodies()
    out = []
    half = n // 2
    for i in range(n):
        def f(x):
            return ("f", x, i)
        if i == half:
            f.__code__ = other_body
        elif i == half + 1:
            f.__code__ = two_args
        elif i == half + 2:
            def f(x, y):
                return ("g", x, y)
            f.__defaults__ = ("default",)
        elif i == half + 3:
            def f(x, y=None):
                return ("h", x, y)
        elif i == half + 4:
            f.__defaults__ = (1,)      # a default the exact call does not use
        out.append(outcome(lambda: f(i)))
        out.append(f(-i) if i not in (half + 1,) else None)
    return out


def call_py_one_code_defaults_differ(n):
    """Functions of one code object made with defaults of other lengths (FunctionType): they
    must not share a version (only functions without defaults share their code's)."""
    def template(a, b=1, c=2):
        return (a, b, c)
    out = []
    for i in range(n):
        defaults = (10, 20) if i < n // 2 else (30,) if i % 2 else None
        f = types.FunctionType(template.__code__, globals(), "f", defaults)
        out.append(f(i, 0, 0))          # an exact call first: f gets its version here
        out.append(outcome(lambda: f(i)))
    return out


# --------------------------------------------------------------------------------------------
# case -> the specialized forms that must have been hit (the site was specialized when the
# change came; with warmup 2 every site here specializes in the first iterations)

GUARDS = {
    la_value_data_descriptor_in_base: ["LOAD_ATTR_INSTANCE_VALUE"],
    la_value_getattribute_added: ["LOAD_ATTR_INSTANCE_VALUE"],
    la_value_bases_assigned: ["LOAD_ATTR_INSTANCE_VALUE"],
    la_value_class_assigned_to_slots_free: ["LOAD_ATTR_INSTANCE_VALUE"],
    la_value_deleted: ["LOAD_ATTR_INSTANCE_VALUE"],
    la_value_list_subclass: ["LOAD_ATTR_WITH_HINT"],
    la_hint_dict_replaced: ["LOAD_ATTR_WITH_HINT"],
    la_hint_descriptor_added: ["LOAD_ATTR_WITH_HINT"],
    la_slot_emptied: ["LOAD_ATTR_SLOT"],
    la_slot_replaced_by_property: ["LOAD_ATTR_SLOT"],
    la_slot_class_assigned: ["LOAD_ATTR_SLOT"],
    la_module_attr_replaced_deleted: ["LOAD_ATTR_MODULE"],
    la_module_getattr_added: ["LOAD_ATTR_MODULE"],
    la_module_class_assigned: ["LOAD_ATTR_MODULE"],
    la_class_attr_reassigned_deleted: ["LOAD_ATTR_CLASS"],
    la_class_bases_assigned: ["LOAD_ATTR_CLASS"],
    la_class_c_descriptors: ["LOAD_ATTR_CLASS", "LOAD_METHOD_CLASS"],
    la_class_attr_of_mutable_class: [],
    la_nondescr_class_attr_changes: ["LOAD_ATTR_NONDESCRIPTOR_WITH_VALUES"],
    la_nondescr_shadowed_by_instance: ["LOAD_ATTR_NONDESCRIPTOR_WITH_VALUES"],
    la_nondescr_dict_and_class_changes: ["LOAD_ATTR_NONDESCRIPTOR_WITH_VALUES"],
    la_nondescr_of_mutable_class: [],
    la_nondescr_no_dict_class_changes: ["LOAD_ATTR_NONDESCRIPTOR_NO_DICT"],
    la_nondescr_no_dict_subclasses: ["LOAD_ATTR_NONDESCRIPTOR_NO_DICT"],
    la_property_getter_code_replaced: ["LOAD_ATTR_PROPERTY"],
    la_property_replaced: ["LOAD_ATTR_PROPERTY"],
    la_property_reinit: ["LOAD_ATTR_PROPERTY"],
    la_property_reinit_to_builtin_and_none: ["LOAD_ATTR_PROPERTY"],
    la_property_borrowed: ["LOAD_ATTR_PROPERTY"],
    la_getattribute_replaced: ["LOAD_ATTR_GETATTRIBUTE_OVERRIDDEN"],
    la_getattribute_getattr_added: ["LOAD_ATTR_GETATTRIBUTE_OVERRIDDEN"],
    la_getattribute_code_replaced: ["LOAD_ATTR_GETATTRIBUTE_OVERRIDDEN"],
    lm_values_shadowed_by_instance: ["LOAD_METHOD_WITH_VALUES"],
    lm_values_shadowed_by_other_instance: ["LOAD_METHOD_WITH_VALUES"],
    lm_values_replaced_kinds: ["LOAD_METHOD_WITH_VALUES"],
    lm_values_getattr_added: ["LOAD_METHOD_WITH_VALUES"],
    lm_no_dict_replaced_and_class_assigned: ["LOAD_METHOD_NO_DICT"],
    lm_no_dict_builtin_subclass: ["LOAD_METHOD_NO_DICT"],
    lm_lazy_dict_shadowed: ["LOAD_METHOD_LAZY_DICT"],
    lm_with_dict_guards: ["LOAD_METHOD_WITH_DICT"],
    lm_class_method_replaced: ["LOAD_METHOD_CLASS"],
    lm_class_attr_of_mutable_class: [],
    lm_module_replaced_deleted: ["LOAD_METHOD_MODULE"],
    sa_values_setattr_added: ["STORE_ATTR_INSTANCE_VALUE"],
    sa_values_property_added: ["STORE_ATTR_INSTANCE_VALUE"],
    sa_values_class_attr_gains_set: [],
    sa_hint_descriptor_added: ["STORE_ATTR_WITH_HINT"],
    sa_hint_in_place: ["STORE_ATTR_WITH_HINT"],
    sa_hint_dict_version_moves: ["STORE_ATTR_WITH_HINT"],
    sa_slot_replaced: ["STORE_ATTR_SLOT"],
    sa_slot_setattr_added: ["STORE_ATTR_SLOT"],
    lg_module_rebound_deleted: ["LOAD_GLOBAL_MODULE"],
    lg_builtin_deleted_and_shadowed: ["LOAD_GLOBAL_BUILTIN"],
    lg_globals_is_instance_dict: [],
    bo_int_subclass: ["BINARY_OP_ADD_INT", "BINARY_OP_SUBTRACT_INT", "BINARY_OP_MULTIPLY_INT",
                      "BINARY_OP_INT_BITWISE", "BINARY_OP_FLOORDIV_MOD_INT"],
    bo_int_edges: ["BINARY_OP_ADD_INT", "BINARY_OP_FLOORDIV_MOD_INT"],
    bo_int_two_digits: ["BINARY_OP_ADD_INT", "BINARY_OP_SUBTRACT_INT", "BINARY_OP_MULTIPLY_INT",
                        "BINARY_OP_INT_BITWISE", "BINARY_OP_FLOORDIV_MOD_INT"],
    bo_float_subclass_and_edges: ["BINARY_OP_ADD_FLOAT", "BINARY_OP_SUBTRACT_FLOAT",
                                  "BINARY_OP_MULTIPLY_FLOAT", "BINARY_OP_TRUE_DIVIDE_FLOAT"],
    bo_numeric_mixed: ["BINARY_OP_NUMERIC"],
    co_numeric_mixed: ["COMPARE_OP_NUMERIC", "COMPARE_OP_NUMERIC_JUMP"],
    bo_str_subclass: ["BINARY_OP_ADD_UNICODE"],
    bo_inplace_unicode_aliased: ["BINARY_OP_INPLACE_ADD_UNICODE"],
    co_subclasses_and_edges: ["COMPARE_OP_INT", "COMPARE_OP_FLOAT", "COMPARE_OP_STR",
                              "COMPARE_OP_INT_JUMP", "COMPARE_OP_FLOAT_JUMP",
                              "COMPARE_OP_STR_JUMP"],
    bs_containers: ["BINARY_SUBSCR_LIST_INT", "BINARY_SUBSCR_TUPLE_INT", "BINARY_SUBSCR_DICT"],
    bs_getitem_guards: ["BINARY_SUBSCR_GETITEM"],
    bs_getitem_class_assigned: ["BINARY_SUBSCR_GETITEM"],
    ss_containers: ["STORE_SUBSCR_LIST_INT", "STORE_SUBSCR_DICT"],
    bs_array: ["BINARY_SUBSCR_ARRAY_INT"],
    bs_str_int: ["BINARY_SUBSCR_STR_INT"],
    ss_array: ["STORE_SUBSCR_ARRAY_INT"],
    us_sequences: ["UNPACK_SEQUENCE_TWO_TUPLE", "UNPACK_SEQUENCE_TUPLE", "UNPACK_SEQUENCE_LIST"],
    call_py_code_and_defaults: ["CALL_PY_EXACT_ARGS", "CALL_PY_WITH_DEFAULTS"],
    call_py_varargs_shape_changed: ["CALL_PY_VARARGS"],
    call_py_keyword_only_defaults_change: ["CALL_PY_VARARGS"],
    call_py_callable_replaced: ["CALL_PY_EXACT_ARGS"],
    call_py_polymorphic: ["CALL_PY_EXACT_ARGS"],
    call_py_polymorphic_defaults: ["CALL_PY_WITH_DEFAULTS"],
    call_py_defaults_varying_receiver: ["CALL_PY_WITH_DEFAULTS"],
    call_py_class_guards: ["CALL_PY_CLASS"],
    call_py_class_init_code_replaced: ["CALL_PY_CLASS"],
    call_py_class_abstract: ["CALL_PY_CLASS"],
    call_builtins_rebound: ["CALL_TYPE_1", "CALL_STR_1", "CALL_TUPLE_1", "CALL_LEN",
                            "CALL_ISINSTANCE"],
    call_simple_forms_other_shapes: ["CALL_TYPE_1", "CALL_LEN", "CALL_ISINSTANCE",
                                     "CALL_LIST_APPEND"],
    call_builtins_subclass_arguments: ["CALL_TYPE_1", "CALL_STR_1", "CALL_TUPLE_1", "CALL_LEN",
                                       "CALL_ISINSTANCE"],
    call_c_functions_rebound: ["CALL_BUILTIN_O", "CALL_BUILTIN_FAST",
                               "CALL_BUILTIN_FAST_WITH_KEYWORDS", "CALL_BUILTIN_CLASS"],
    call_method_descriptors_receivers: ["CALL_METHOD_DESCRIPTOR_NOARGS",
                                        "CALL_METHOD_DESCRIPTOR_FAST",
                                        "CALL_METHOD_DESCRIPTOR_FAST_WITH_KEYWORDS",
                                        "CALL_METHOD_DESCRIPTOR_O", "CALL_LIST_APPEND"],
    call_builtin_class_rebound: ["CALL_BUILTIN_CLASS"],
    call_non_py_general_callables_change: ["CALL_NON_PY_GENERAL"],
    fi_iterables_change: ["FOR_ITER_LIST", "FOR_ITER_TUPLE", "FOR_ITER_RANGE", "FOR_ITER_GEN"],
    send_receivers_change: ["SEND_GEN"],
    fi_iternext_types_change: ["FOR_ITER_ITERNEXT"],
    call_py_function_made_per_call: ["CALL_PY_EXACT_ARGS"],
    call_py_one_code_defaults_differ: ["CALL_PY_WITH_DEFAULTS"],
}


@pytest.mark.parametrize("func", list(GUARDS), ids=lambda f: f.__name__)
def test_guard_broken_after_specialization(func):
    native_then_forms_hit(func, GUARDS[func])


def native_then_forms_hit(func, forms):
    """func(N) as natively in every configuration, and then, in adaptive mode, with each of
    `forms` hit (also tests/test_super.py)."""
    native = check(func, (N,))               # native vs generic and warmups 0, 2, 50
    pyadapt.configure(specialize=True, warmup=2)
    pyadapt.reset_stats()
    d = diff(pyadapt.run(func, N), native)
    assert d is None, d
    specialized = pyadapt.stats()["specialized"]
    not_hit = [f for f in forms if specialized.get(f, {}).get("hits", 0) == 0]
    assert not not_hit, (not_hit, {k: v for k, v in specialized.items() if v["hits"]})


# --------------------------------------------------------------------------------------------
# Descriptors of every kind borrowed by unrelated classes, swapped on the class mid-loop, at
# every attribute site form: load, store, method call, class-level load and call -- on hosts
# with inline values, with a materialized __dict__, with __slots__, and on a list subclass.

class _SlotOwner:
    __slots__ = ("slot",)


class _PyOwner:
    @property
    def prop(self):
        return "prop of " + type(self).__name__

    @prop.setter
    def prop(self, value):
        object.__setattr__(self, "_set", value) if hasattr(self, "__dict__") else None

    def method(self, *a):
        return ("method", type(self).__name__, a)

    @classmethod
    def cmeth(cls, *a):
        return ("classmethod", cls.__name__, a)

    @staticmethod
    def smeth(*a):
        return ("staticmethod", a)

    def __getattribute__(self, name):
        return object.__getattribute__(self, name)


BORROWED_KINDS = {
    "slot member": _SlotOwner.slot,
    "property": _PyOwner.__dict__["prop"],
    "function": _PyOwner.__dict__["method"],
    "classmethod": _PyOwner.__dict__["cmeth"],
    "staticmethod": _PyOwner.__dict__["smeth"],
    "method descriptor O": list.__dict__["append"],
    "method descriptor NOARGS": str.__dict__["upper"],
    "method descriptor FAST": str.__dict__["replace"],
    "slot wrapper": int.__dict__["__add__"],
    "getset": type(len).__dict__["__name__"],
    "C member": complex.__dict__["real"],
    "classmethod descriptor": dict.__dict__["fromkeys"],
    "builtin function": len,
    "__getattribute__ function": _PyOwner.__dict__["__getattribute__"],
    "plain value": 42,
}


def _host_classes():
    class Values:
        def __init__(self):
            self.a = 1
    class Hinted:
        def __init__(self):
            self.a = 1
            self.__dict__["b"] = 2
    class Slots:
        __slots__ = ("a", "b")
        def __init__(self):
            self.a = 1
    class ListSub(list):
        def __init__(self):
            self.a = 1
    return [Values, Hinted, Slots, ListSub]


_OPS_SOURCE = """
def ops(o, host):
    def store_a():
        o.a = o.a + 1
    return (lambda: o.d, lambda: o.d(), lambda: o.d(1), lambda: o.d("a", "b"),
            lambda: setattr(o, "d", 5), lambda: host.d, lambda: host.d(o),
            lambda: o.a, store_a, lambda: o.__init__())
"""


def borrowed_descriptors_swapped(n):
    """Each descriptor kind, then the next one, on the same (freshly compiled) sites."""
    out = []
    kinds = list(BORROWED_KINDS.items())
    for host in _host_classes():
        o = host()
        for (kind, descr), (next_kind, next_descr) in zip(kinds, kinds[1:] + kinds[:1]):
            ns = {}
            exec(_OPS_SOURCE, ns)            # new code objects: sites that start adaptive
            ops = ns["ops"](o, host)
            setattr(host, "d", descr)
            for i in range(n // 4):
                if i == n // 8:
                    setattr(host, "d", next_descr)
                    kind = next_kind
                out.append((host.__name__, kind) + tuple(_clean(outcome(op)) for op in ops))
            try:
                delattr(o, "d")
            except (AttributeError, TypeError):
                pass
    return out


def borrowed_getattribute_swapped(n):
    # __getattribute__ itself borrowed: a Python function, then a slot wrapper of another type
    out = []
    for host in _host_classes():
        o = host()
        for kind, ga in (("python", _PyOwner.__dict__["__getattribute__"]),
                         ("object", object.__getattribute__),
                         ("foreign wrapper", int.__getattribute__),
                         ("lambda", lambda self, name: "lambda " + name)):
            host.__getattribute__ = ga
            for _ in range(n // 8):
                out.append((host.__name__, kind, outcome(lambda: o.a), outcome(lambda: o.zz)))
            del host.__getattribute__
    return out


def _clean(x):
    """Bound methods and functions compare by what they are, not by address."""
    if callable(x) and not isinstance(x, type):
        return "callable " + getattr(x, "__qualname__", type(x).__name__)
    return x


@pytest.mark.parametrize("func", [borrowed_descriptors_swapped, borrowed_getattribute_swapped],
                         ids=lambda f: f.__name__)
def test_borrowed_descriptors_swapped_mid_loop(func):
    native = check(func, (N,))
    pyadapt.configure(specialize=True, warmup=0)
    try:
        pyadapt.reset_stats()
        d = diff(pyadapt.run(func, N), native)
        assert d is None, d
        s = pyadapt.stats()
    finally:
        pyadapt.configure(specialize=True, warmup=2)
    # the sites did specialize (and then met the next descriptor)
    hit = {k for k, v in s["specialized"].items() if v["hits"]}
    assert BORROWED_FORMS[func] <= hit, BORROWED_FORMS[func] - hit


BORROWED_FORMS = {
    borrowed_descriptors_swapped: {
        "LOAD_ATTR_INSTANCE_VALUE", "LOAD_ATTR_WITH_HINT", "LOAD_ATTR_SLOT", "LOAD_ATTR_CLASS",
        "LOAD_ATTR_PROPERTY", "LOAD_METHOD_WITH_VALUES", "LOAD_METHOD_NO_DICT",
        "LOAD_METHOD_CLASS", "STORE_ATTR_INSTANCE_VALUE", "STORE_ATTR_WITH_HINT",
        "STORE_ATTR_SLOT", "CALL_PY_EXACT_ARGS", "CALL_LIST_APPEND",
        "CALL_METHOD_DESCRIPTOR_NOARGS"},
    borrowed_getattribute_swapped: {"LOAD_ATTR_GETATTRIBUTE_OVERRIDDEN"},
}


MUTABLE_CLASS = "class attribute of a mutable class (could gain __get__/__set__)"


@pytest.mark.parametrize("func,family", [(la_class_attr_of_mutable_class, "LOAD_ATTR"),
                                         (la_nondescr_of_mutable_class, "LOAD_ATTR"),
                                         (lm_class_attr_of_mutable_class, "LOAD_METHOD"),
                                         (sa_values_class_attr_gains_set, "STORE_ATTR")],
                         ids=lambda x: getattr(x, "__name__", x))
def test_attribute_of_mutable_class_is_refused_with_its_kind(func, family):
    # these sites must not specialize at all: the change comes from the attribute's own class
    pyadapt.configure(specialize=True, warmup=0)
    try:
        pyadapt.reset_stats()
        pyadapt.run(func, N)
        kinds = pyadapt.stats()["families"][family]["failure_kinds"]
    finally:
        pyadapt.configure(specialize=True, warmup=2)
    assert kinds.get(MUTABLE_CLASS, 0) > 0, kinds
