"""Object protocol edge cases: reflected and in-place operator fallbacks, NotImplemented, dunder
methods returning the wrong thing, errors raised by dunders, unraisable exceptions, contextvars."""

import contextvars
import sys

import pytest

from harness import collect, run_case


def attempt(thunk):
    try:
        return thunk()
    except Exception as e:  # noqa: BLE001
        return (type(e).__name__, str(e))


def case_reflected_operators_and_subclass_priority():
    log = []

    class Base:
        def __add__(self, o):
            log.append("Base.__add__")
            return NotImplemented

        def __radd__(self, o):
            log.append("Base.__radd__")
            return "Base radd"

        def __lt__(self, o):
            log.append("Base.__lt__")
            return NotImplemented

        def __gt__(self, o):
            log.append("Base.__gt__")
            return "Base gt"

    class Sub(Base):
        def __radd__(self, o):
            log.append("Sub.__radd__")
            return "Sub radd"

    out = [Base() + Sub(), 1 + Base(), Base() < Base(), attempt(lambda: Base() + 1)]
    return out, log


def case_inplace_falls_back_to_binary():
    class A:
        def __init__(self, v):
            self.v = v

        def __iadd__(self, o):
            return NotImplemented

        def __add__(self, o):
            return A(self.v + o)

        def __imul__(self, o):
            self.v *= o
            return self

    a = A(1)
    orig = a
    a += 5
    b = A(2)
    orig_b = b
    b *= 3
    return a.v, a is orig, b.v, b is orig_b


def case_eq_not_implemented_falls_back_to_identity():
    class A:
        def __eq__(self, o):
            return NotImplemented

    a = A()
    return a == a, a == A(), a != A(), a in [a], A() in [A()], [a].count(a)


def case_dunders_returning_wrong_types():
    class BadHash:
        def __hash__(self):
            return "no"

    class BigHash:
        def __hash__(self):
            return 2**100

    class NegLen:
        def __len__(self):
            return -1

    class StrLen:
        def __len__(self):
            return "3"

    class BadIndex:
        def __index__(self):
            return 1.5

    class BadBool:
        def __bool__(self):
            return "yes"

    class BadIter:
        def __iter__(self):
            return 5

    class BadRepr:
        def __repr__(self):
            return 42

    class BadStr:
        def __str__(self):
            return b"bytes"

    class BadInt:
        def __int__(self):
            return "x"

    return [
        attempt(lambda: hash(BadHash())),
        hash(BigHash()) == hash(2**100),
        attempt(lambda: len(NegLen())),
        attempt(lambda: len(StrLen())),
        attempt(lambda: [1, 2][BadIndex()]),
        attempt(lambda: bool(BadBool())),
        attempt(lambda: "t" if BadBool() else "f"),
        attempt(lambda: iter(BadIter())),
        attempt(lambda: [v for v in BadIter()]),
        attempt(lambda: repr(BadRepr())),
        attempt(lambda: str(BadStr())),
        attempt(lambda: int(BadInt())),
        attempt(lambda: {BadHash(): 1}),
    ]


def case_dunders_raising():
    class Raises:
        def __getattr__(self, name):
            raise KeyError(name)  # not AttributeError: hasattr() must propagate it

        def __bool__(self):
            raise ValueError("no truth")

        def __len__(self):
            raise RuntimeError("no len")

        def __contains__(self, v):
            raise IndexError("no contains")

        def __eq__(self, o):
            raise TypeError("no eq")

        __hash__ = object.__hash__

    r = Raises()
    return [
        attempt(lambda: r.missing),
        attempt(lambda: hasattr(r, "missing")),
        attempt(lambda: getattr(r, "missing", "default")),
        attempt(lambda: not r),
        attempt(lambda: len(r)),
        attempt(lambda: 1 in r),
        attempt(lambda: r == 1),
        attempt(lambda: r in [1]),
        attempt(lambda: [r].index(r)),  # identity short-cut: __eq__ not called
    ]


def case_contains_falls_back_to_iteration():
    class OnlyIter:
        def __iter__(self):
            return iter([1, 2, 3])

    class OnlyGetitem:
        def __getitem__(self, i):
            if i > 5:
                raise IndexError
            return i

    return 2 in OnlyIter(), 9 in OnlyIter(), 4 in OnlyGetitem(), 7 in OnlyGetitem()


def case_set_name_and_init_subclass_errors():
    class BadDescriptor:
        def __set_name__(self, owner, name):
            raise ValueError(f"cannot bind {name}")

    def make_class():
        class C:
            attr = BadDescriptor()

        return C

    class Base:
        def __init_subclass__(cls):
            raise TypeError(f"no subclasses of Base: {cls.__name__}")

    def make_sub():
        class S(Base):
            pass

    def bad_kw():
        class T(kw=1):
            pass

    return attempt(make_class), attempt(make_sub), attempt(bad_kw)


def case_unraisable_exceptions_in_del():
    seen = []

    def hook(unraisable):
        seen.append((type(unraisable.exc_value).__name__, str(unraisable.exc_value), unraisable.err_msg, type(unraisable.object).__name__))

    class Bad:
        def __del__(self):
            raise RuntimeError("del failed")

    old = sys.unraisablehook
    sys.unraisablehook = hook
    try:
        b = Bad()
        del b
        [Bad() for _ in range(2)]
    finally:
        sys.unraisablehook = old
    return seen


def case_contextvars_run_calls_python():
    var = contextvars.ContextVar("var", default="default")

    def inside(v):
        token = var.set(v)
        inner = var.get()
        var.reset(token)
        var.set("left set")
        return inner, var.get()

    ctx = contextvars.copy_context()
    r = ctx.run(inside, "in ctx")
    return r, var.get(), ctx[var], attempt(lambda: ctx.run(ctx.run, inside, 1))[0]


def case_format_map_and_missing():
    class Default(dict):
        def __missing__(self, key):
            return f"<{key}>"

    return "{a} {b}".format_map(Default(a=1)), "%(a)s %(x)s" % Default(a=2)


def case_getattribute_and_descriptor_order():
    log = []

    class DataDesc:
        def __get__(self, obj, typ=None):
            log.append("data get")
            return "data"

        def __set__(self, obj, value):
            log.append("data set")

    class NonDataDesc:
        def __get__(self, obj, typ=None):
            log.append("non-data get")
            return "non-data"

    class A:
        d = DataDesc()
        n = NonDataDesc()

    a = A()
    a.__dict__["d"] = "instance d"
    a.__dict__["n"] = "instance n"
    out = [a.d, a.n, A.d, A.n]
    a.d = 1
    return out, log


def case_class_and_static_method_descriptors():
    class A:
        @classmethod
        def c(cls):
            return cls.__name__

        @staticmethod
        def s(*a):
            return a

        @property
        def p(self):
            return "p"

    class B(A):
        pass

    cm = A.__dict__["c"]
    sm = A.__dict__["s"]
    return [B.c(), B().c(), cm.__get__(None, B)(), sm.__get__(None, A)(1), A.s(2), attempt(lambda: A.__dict__["p"].__get__(None, A) is A.__dict__["p"])]


def case_mro_conflict_and_dynamic_bases():
    class A:
        pass

    class B(A):
        pass

    def bad_mro():
        class C(A, B):
            pass

    def bad_base():
        class D(5):
            pass

    class Mixin:
        def hello(self):
            return "mixin"

    class E:
        def __mro_entries__(self, bases):
            return (Mixin,)

    class F(E()):
        pass

    return attempt(bad_mro), attempt(bad_base), F().hello(), [k.__name__ for k in F.__mro__]


@pytest.mark.parametrize("case,args,kwargs", collect(globals()))
def test_case(case, args, kwargs):
    run_case(case, args, kwargs)
