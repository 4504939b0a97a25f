"""super().name and super().method(...) (CPython 3.12+'s LOAD_SUPER_ATTR): the specialized forms
LOAD_SUPER_{ATTR,METHOD}_{INSTANCE,CLASS} and each of their guards (docs/architecture.md,
"Guards of every specialized form").

Every case lets its sites specialize, breaks what a guard protects half-way through a loop
(tests/test_guards.py's model) and records what the program sees; harness.check compares it
with native CPython in generic mode and adaptive warmups 0, 2 and 50, and the adaptive run that
follows must show the forms under test hit.
"""
import builtins
import sys

import pytest

import pyadapt
from harness import diff
from test_guards import loop, native_then_forms_hit, outcome

pytestmark = pytest.mark.skipif(sys.version_info < (3, 12),
                                reason="3.11 compiles super() to a call: no LOAD_SUPER_ATTR")


def classes():
    """A fresh A <- B pair: B's methods reach A's through zero-argument super()."""
    class A:
        label = "A.label"

        def __init__(self):
            self.v = 1

        def m(self, x):
            return ("A.m", type(self).__name__, x)

        @property
        def prop(self):
            return "A.prop of " + type(self).__name__

        @classmethod
        def cm(cls, x):
            return ("A.cm", cls.__name__, x)

        @staticmethod
        def sm(x):
            return ("A.sm", x)

    class B(A):
        def __init__(self):
            super().__init__()

        def m(self, x):
            return ("B", super().m(x))

        def attr(self):
            return super().m

        def prop_(self):
            return super().prop

        def label_(self):
            return super().label

        def cm_(self):
            return super().cm(1), super().sm(2)

        @classmethod
        def make(cls):
            return super().cm(3), super().sm

        def __repr__(self):
            return "<B>"
    return A, B


# ---- guard: `super` is the builtin ----

def super_rebound_in_globals(n):
    _, B = classes()
    b = B()
    g = B.m.__globals__

    def fake(*a):
        return type("S", (), {"m": lambda self, x: ("fake", len(a), x)})()
    try:
        return loop(n, lambda: b.m(1), lambda: g.__setitem__("super", fake))
    finally:
        g.pop("super", None)


def super_rebound_in_builtins(n):
    _, B = classes()
    b = B()
    real = builtins.super

    class MySuper(real):
        def __getattribute__(self, name):
            return ("MySuper", name)
    try:
        return loop(n, lambda: (b.m(1), b.attr()), lambda: setattr(builtins, "super", MySuper))
    finally:
        builtins.super = real


# ---- guard: the class is the cached one (a type) ----

def class_cell_not_a_type(n):
    _, B = classes()
    b = B()
    cell = B.m.__closure__[0]
    return loop(n, lambda: b.m(1), lambda: setattr(cell, "cell_contents", 42))


def class_cell_another_class(n):
    A, B = classes()

    class C(B):
        def m(self, x):
            return ("C", x)
    c = C()
    cell = B.m.__closure__[0]
    return loop(n, lambda: B.m(c, 1), lambda: setattr(cell, "cell_contents", C))


def two_argument_super(n):
    A, B = classes()

    class C(B):
        pass
    o = C()
    box = [C]

    def op():
        return super(box[0], o).m(5), super(box[0], o).label
    out = loop(n, op, lambda: box.__setitem__(0, B))
    out += loop(n, op, lambda: box.__setitem__(0, A))
    out += loop(n, op, lambda: box.__setitem__(0, 7))
    return out


def object_not_an_instance(n):
    A, B = classes()
    box = [B()]
    return loop(n, lambda: super(B, box[0]).m(1), lambda: box.__setitem__(0, A()))


# ---- guard: the searched type's version ----

def base_method_replaced_and_deleted(n):
    A, B = classes()
    b = B()
    out = loop(n, lambda: (b.m(1), b.attr()(2)), lambda: setattr(A, "m", lambda self, x: ("new", x)))
    out += loop(n, lambda: (b.m(1), b.attr()(2)), lambda: delattr(A, "m"))
    return out


def bases_assigned(n):
    A, B = classes()

    class A2:
        def m(self, x):
            return ("A2.m", x)
        label = "A2.label"
    b = B()
    return loop(n, lambda: (b.m(1), b.label_()), lambda: setattr(B, "__bases__", (A2,)))


def instance_class_assigned(n):
    A, B = classes()

    class C(B):
        def m(self, x):
            return ("C", super().m(x))

    class D(B):
        pass
    o = C()
    return loop(n, lambda: (B.m(o, 1), B.attr(o)(2)), lambda: setattr(o, "__class__", D))


def getattribute_added_to_the_instance_class(n):
    A, B = classes()
    b = B()
    return loop(n, lambda: (b.m(1), b.prop_()),
                lambda: setattr(B, "__getattribute__", lambda self, name: object.__getattribute__(self, name)))


def getattribute_from_the_start(n):
    A, B = classes()

    class G(B):
        def __getattribute__(self, name):
            return object.__getattribute__(self, name)

        def m(self, x):
            return ("G", super().m(x))
    g = G()
    return loop(n, lambda: g.m(1), lambda: None)


# ---- what the cached attribute is: descriptors of every kind ----

def descriptors_not_functions(n):
    A, B = classes()
    b = B()
    return loop(n, lambda: (b.prop_(), b.label_(), b.cm_(), B.make()[0], B.make()[1](4)),
                lambda: None)


def descriptor_class_gains_get(n):
    A, B = classes()

    class V:
        pass
    A.label = V()

    def show(v):
        return type(v).__name__ if isinstance(v, V) else v
    return loop(n, lambda: show(B().label_()),
                lambda: setattr(V, "__get__", lambda self, obj, tp: ("V.__get__", obj is not None, tp.__name__)))


def property_getter_raises(n):
    A, B = classes()
    b = B()
    state = {"raise": False}

    def getter(self):
        if state["raise"]:
            raise ValueError("getter says no")
        return "ok"
    A.prop = property(getter)
    return loop(n, b.prop_, lambda: state.__setitem__("raise", True))


def new_through_super(n):
    class A:
        def __new__(cls, *a):
            return super().__new__(cls)

    class B(A):
        def __new__(cls, x):
            o = super().__new__(cls, x)
            o.x = x
            return o
    out = loop(n, lambda: (type(B(1)).__name__, B(2).x), lambda: setattr(A, "__new__", staticmethod(lambda cls, *a: object.__new__(cls))))
    return out


def metaclass_methods(n):
    class Meta(type):
        def __new__(mcls, name, bases, ns):
            return super().__new__(mcls, name, bases, ns)

        def __call__(cls, *a):
            o = super().__call__(*a)
            return ("made", type(o).__name__)

        def describe(cls):
            return super().__repr__()[:8]
    Made = Meta("Made", (), {})
    return loop(n, lambda: (Made(), Made.describe(), type(Meta("X", (), {})).__name__), lambda: None)


def super_in_generator_and_coroutine(n):
    A, B = classes()

    class C(B):
        def gen(self):
            yield super().m(1)
            yield super().label

        async def coro(self):
            return super().m(2)
    c = C()

    def run_coro():
        co = c.coro()
        try:
            co.send(None)
        except StopIteration as e:
            return e.value
    return loop(n, lambda: (list(c.gen()), run_coro()), lambda: setattr(A, "label", "changed"))


def name_not_found(n):
    A, B = classes()

    class C(B):
        def f(self):
            return super().nothing
    c = C()
    return loop(n, c.f, lambda: setattr(A, "nothing", "found now"))


CASES = {
    super_rebound_in_globals: ["LOAD_SUPER_METHOD_INSTANCE"],
    super_rebound_in_builtins: ["LOAD_SUPER_METHOD_INSTANCE", "LOAD_SUPER_ATTR_INSTANCE"],
    class_cell_not_a_type: ["LOAD_SUPER_METHOD_INSTANCE"],
    class_cell_another_class: ["LOAD_SUPER_METHOD_INSTANCE"],
    two_argument_super: ["LOAD_SUPER_METHOD_INSTANCE", "LOAD_SUPER_ATTR_INSTANCE"],
    object_not_an_instance: ["LOAD_SUPER_METHOD_INSTANCE"],
    base_method_replaced_and_deleted: ["LOAD_SUPER_METHOD_INSTANCE", "LOAD_SUPER_ATTR_INSTANCE"],
    bases_assigned: ["LOAD_SUPER_METHOD_INSTANCE", "LOAD_SUPER_ATTR_INSTANCE"],
    instance_class_assigned: ["LOAD_SUPER_METHOD_INSTANCE", "LOAD_SUPER_ATTR_INSTANCE"],
    getattribute_added_to_the_instance_class: ["LOAD_SUPER_METHOD_INSTANCE",
                                               "LOAD_SUPER_ATTR_INSTANCE"],
    getattribute_from_the_start: ["LOAD_SUPER_METHOD_INSTANCE"],
    descriptors_not_functions: ["LOAD_SUPER_ATTR_INSTANCE", "LOAD_SUPER_METHOD_INSTANCE",
                                "LOAD_SUPER_METHOD_CLASS", "LOAD_SUPER_ATTR_CLASS"],
    descriptor_class_gains_get: ["LOAD_SUPER_ATTR_INSTANCE"],
    property_getter_raises: ["LOAD_SUPER_ATTR_INSTANCE"],
    new_through_super: ["LOAD_SUPER_METHOD_CLASS"],
    metaclass_methods: ["LOAD_SUPER_METHOD_CLASS", "LOAD_SUPER_METHOD_INSTANCE"],
    super_in_generator_and_coroutine: ["LOAD_SUPER_METHOD_INSTANCE", "LOAD_SUPER_ATTR_INSTANCE"],
    name_not_found: [],
}


@pytest.mark.parametrize("func", list(CASES), ids=lambda f: f.__name__)
def test_super_guard_broken_after_specialization(func):
    native_then_forms_hit(func, CASES[func])


def test_super_sites_specialize_and_dis_shows_them():
    """The forms and their caches as dis shows them, and the hits stats() counts."""
    A, B = classes()
    b = B()

    def run(k):
        return [(b.m(i), b.attr()(i), B.make()[0]) for i in range(k)]
    pyadapt.configure(specialize=True, warmup=2)
    pyadapt.reset_stats()
    assert pyadapt.run(run, 10) == run(10)
    st = pyadapt.stats()["specialized"]
    assert st["LOAD_SUPER_METHOD_INSTANCE"]["hits"] >= 8, st
    assert st["LOAD_SUPER_ATTR_INSTANCE"]["hits"] >= 8, st
    assert st["LOAD_SUPER_METHOD_CLASS"]["hits"] >= 8, st
    ops = {i.opname: i for i in pyadapt.get_instructions(B.m, adaptive=True)}
    assert "LOAD_SUPER_METHOD_INSTANCE" in ops, sorted(ops)
    caches = dict(ops["LOAD_SUPER_METHOD_INSTANCE"].caches)
    assert caches["class_hi"] << 32 | caches["class_lo"] == id(B)
    assert caches["descr_hi"] << 32 | caches["descr_lo"] == id(A.__dict__["m"])
    import io
    out = io.StringIO()
    pyadapt.dis(B.m, adaptive=True, show_caches=True, file=out)
    text = out.getvalue()
    assert "LOAD_SUPER_METHOD_INSTANCE" in text and "(class %s)" % B.__qualname__ in text, text
    assert "(function %s)" % A.m.__qualname__ in text, text


@pytest.mark.parametrize("change,kind", [
    ("globals", "super is not the builtin super"),
    ("cell", "super()'s class is not a type"),
    ("object", "super()'s object neither an instance nor a subclass of its class"),
    ("missing", "name not found"),
])
def test_super_failures_say_why(change, kind):
    A, B = classes()

    class C(B):
        def f(self):
            return super().nothing
    g = B.m.__globals__
    if change == "globals":
        g["super"] = lambda *a: A()
        f, args = B.m, (B(), 1)
    elif change == "cell":
        f, args = B.attr, (B(),)
        B.m.__closure__[0].cell_contents = 42
    elif change == "object":
        f, args = (lambda o: super(B, o).m(1)), (A(),)
    else:
        f, args = C.f, (C(),)

    def run():
        out = []
        for _ in range(5):
            out.append(outcome(lambda: f(*args)))
        return out
    try:
        native = run()
        pyadapt.configure(specialize=True, warmup=0)
        pyadapt.reset_stats()
        assert diff(pyadapt.run(run), native) is None
        st = pyadapt.stats()
    finally:
        g.pop("super", None)
        pyadapt.configure(specialize=True, warmup=2)
    fam = st["families"]
    kinds = {}
    for name in ("LOAD_SUPER_ATTR", "LOAD_SUPER_METHOD"):
        kinds.update(fam.get(name, {}).get("failure_kinds", {}))
    assert kinds.get(kind, 0) >= 1, fam
