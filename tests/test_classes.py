"""Classes: bodies, inheritance, super(), properties, descriptors, __slots__, metaclasses, dataclasses."""

import dataclasses
import functools

import pytest

from harness import check, collect, differential, entered, factory, run_case


def attempt(thunk):
    try:
        return thunk()
    except Exception as e:  # noqa: BLE001
        return (type(e).__name__, str(e))


# --- The LWN article's example ----------------------------------------------------------------


class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def shifted(self, dx, dy):
        cls = type(self)
        return cls(self.x + dx, self.y + dy)


def lwn_point_loop(n):
    p = Point(0.0, 0.0)
    trail = []
    for i in range(n):
        p = p.shifted(0.5, -0.25)
        if i % 100 == 0:
            trail.append((p.x, p.y))
    return p.x, p.y, trail


def test_lwn_point_example():
    """LOAD_ATTR / BINARY_OP float / type() / class call, run hot in a loop: the article's workload."""
    result = check(lwn_point_loop, (1000,), also=[Point.shifted, Point.__init__])
    assert result[:2] == (500.0, -250.0)


def test_lwn_point_subclass_after_warmup():
    """After shifted() specialized on Point, a subclass instance must still build the subclass."""

    class Point3(Point):
        def __init__(self, x, y, z=1.5):
            super().__init__(x, y)
            self.z = z

    def run():
        lwn_point_loop(50)
        q = Point3(1.0, 2.0).shifted(1.0, 1.0)
        return type(q).__name__, q.x, q.y, q.z, lwn_point_loop(10)[:2]

    differential(run)


# --- class bodies and attributes ----------------------------------------------------------------


def case_class_body_executes():
    log = []

    class A:
        log.append("body start")
        x = 1
        y = x + 1
        items = [x, y]
        log.append("body end")

        def method(self):
            return self.x + self.y

    return log, A.x, A.y, A.items, A().method(), A.__qualname__, A.__name__, A.__module__, sorted(k for k in vars(A) if not k.startswith("__"))


def case_instance_attributes():
    class A:
        cls_attr = "class"

        def __init__(self):
            self.a = 1

    o = A()
    o.b = 2
    r = [o.a, o.b, o.cls_attr, A.cls_attr, vars(o), attempt(lambda: o.missing)]
    o.cls_attr = "instance"
    r += [o.cls_attr, A.cls_attr]
    del o.cls_attr
    r.append(o.cls_attr)
    del o.a

    def delete_again():
        del o.a

    r.append(attempt(delete_again))
    r.append(attempt(lambda: A.nope))
    A.cls_attr = "changed"
    r.append(o.cls_attr)
    return r


def case_attribute_shapes_change():
    """Attribute loads through many object shapes: LOAD_ATTR specializations must keep guarding."""

    class A:
        def __init__(self):
            self.x = 1

    class B:
        x = 2

    class C:
        __slots__ = ("x",)

        def __init__(self):
            self.x = 3

    class D:
        @property
        def x(self):
            return 4

    class E:
        def __getattr__(self, name):
            return 5

    import types as _types

    objs = [A(), A(), B(), C(), D(), E(), _types.SimpleNamespace(x=6), A]
    late = A()
    late.y = 0
    late.x = 7
    objs.append(late)
    out = []
    for _ in range(3):
        for o in objs:
            out.append(attempt(lambda: o.x))
    B.x = 20
    out.append(objs[2].x)
    return out


def case_inheritance_and_mro():
    class Base:
        kind = "base"

        def who(self):
            return "Base"

        def describe(self):
            return f"{self.who()} of kind {self.kind}"

    class Left(Base):
        def who(self):
            return "Left+" + super().who()

    class Right(Base):
        kind = "right"

        def who(self):
            return "Right+" + super().who()

    class Diamond(Left, Right):
        def who(self):
            return "Diamond+" + super().who()

    d = Diamond()
    return [c.__name__ for c in Diamond.__mro__], d.describe(), isinstance(d, Base), issubclass(Diamond, Right), Left().describe()


def case_super_forms():
    class A:
        def __init__(self, v):
            self.v = v

        def m(self):
            return "A.m"

        @classmethod
        def c(cls):
            return "A.c:" + cls.__name__

    class B(A):
        def __init__(self, v):
            super().__init__(v * 2)

        def m(self):
            return "B.m>" + super().m() + ">" + super(B, self).m()

        @classmethod
        def c(cls):
            return "B.c>" + super().c()

        def lazy(self):
            return lambda: super(B, self).m()

        def uses_class_cell(self):
            return __class__.__name__

    b = B(5)
    return b.v, b.m(), B.c(), b.lazy()(), b.uses_class_cell(), attempt(lambda: super(B, 1))


def case_super_errors():
    def no_args():
        return super()  # noqa: no __class__ cell here

    class A:
        def m(self):
            def nested():
                return super().m()

            return nested()

    return attempt(no_args), attempt(lambda: A().m())


def case_properties():
    class Temp:
        def __init__(self):
            self._c = 0.0

        @property
        def celsius(self):
            return self._c

        @celsius.setter
        def celsius(self, v):
            if v < -273.15:
                raise ValueError("below absolute zero")
            self._c = v

        @celsius.deleter
        def celsius(self):
            self._c = None

        @property
        def fahrenheit(self):
            return self._c * 9 / 5 + 32

    t = Temp()
    out = []
    for v in (0.0, 100.0, -40.0):
        t.celsius = v
        out.append((t.celsius, t.fahrenheit))
    out.append(attempt(lambda: setattr(t, "celsius", -300)))
    out.append(attempt(lambda: setattr(t, "fahrenheit", 1)))
    del t.celsius
    out.append(t._c)
    return out


def case_descriptors():
    log = []

    class Typed:
        def __set_name__(self, owner, name):
            log.append(("set_name", owner.__name__, name))
            self.name = "_" + name

        def __get__(self, obj, objtype=None):
            if obj is None:
                return self
            return getattr(obj, self.name, "unset")

        def __set__(self, obj, value):
            if not isinstance(value, int):
                raise TypeError(f"{self.name[1:]} must be int, got {type(value).__name__}")
            setattr(obj, self.name, value)

    class NonData:
        def __get__(self, obj, objtype=None):
            return "non-data"

    class Model:
        a = Typed()
        b = Typed()
        nd = NonData()

    m = Model()
    out = [m.a]
    m.a = 5
    out.append(m.a)
    out.append(attempt(lambda: setattr(m, "b", "x")))
    out.append(m.nd)
    m.__dict__["nd"] = "instance wins"
    out.append(m.nd)
    out.append(type(Model.a).__name__)
    return out, log


def case_slots():
    class S:
        __slots__ = ("a", "b")

        def __init__(self, a):
            self.a = a

    class T(S):
        __slots__ = ("c",)

    s = S(1)
    t = T(2)
    t.c = 3
    out = [s.a, attempt(lambda: s.b), t.a, t.c, hasattr(s, "__dict__")]
    out.append(attempt(lambda: setattr(s, "z", 1)))
    s.b = 9
    del s.a
    out.append(attempt(lambda: s.a))
    out.append(s.b)
    return out


def case_metaclass():
    log = []

    class Meta(type):
        def __new__(mcls, name, bases, ns, **kw):
            log.append(("new", name, sorted(k for k in ns if not k.startswith("__")), kw))
            ns["added"] = name.lower()
            return super().__new__(mcls, name, bases, ns)

        def __init__(cls, name, bases, ns, **kw):
            log.append(("init", name))
            super().__init__(name, bases, ns)

        def __call__(cls, *args, **kwargs):
            log.append(("call", cls.__name__, args))
            return super().__call__(*args, **kwargs)

        @classmethod
        def __prepare__(mcls, name, bases, **kw):
            log.append(("prepare", name))
            return {"prepared": True}

    class A(metaclass=Meta, flag=1):
        x = 1

        def __init__(self, v=0):
            self.v = v

    class B(A):
        y = 2

    b = B(7)
    return log, A.added, B.added, A.prepared, b.v, type(B).__name__


def case_init_subclass_and_class_getitem():
    registry = []

    class Plugin:
        def __init_subclass__(cls, name=None, **kw):
            super().__init_subclass__(**kw)
            registry.append((cls.__name__, name))

        def __class_getitem__(cls, item):
            return f"{cls.__name__}[{item!r}]"

    class A(Plugin, name="a"):
        pass

    class B(A):
        pass

    err = attempt(lambda: type("C", (Plugin,), {}, bogus=1))
    return registry, Plugin[int], B["x"], err


def case_class_decorators():
    def register(tag):
        def deco(cls):
            cls.tag = tag
            cls.registered = True
            return cls

        return deco

    def add_repr(cls):
        cls.__repr__ = lambda self: f"<{type(self).__name__} {vars(self)}>"
        return cls

    @add_repr
    @register("t1")
    class A:
        def __init__(self):
            self.z = 1

    return A.tag, A.registered, repr(A())


def case_dataclasses():
    @dataclasses.dataclass(order=True)
    class Item:
        name: str
        price: float = 0.0
        tags: list = dataclasses.field(default_factory=list)

        def total(self, n):
            return self.price * n

    @dataclasses.dataclass(frozen=True)
    class Frozen:
        a: int
        b: int = 2

    i = Item("a", 1.5)
    j = Item("b", 0.5, ["x"])
    f = Frozen(1)
    return [repr(i), i == Item("a", 1.5), i < j, sorted([j, i])[0].name, i.total(3), dataclasses.asdict(j), hash(f) == hash(Frozen(1)), attempt(lambda: setattr(f, "a", 2)), dataclasses.replace(f, b=5), attempt(lambda: Item())]


def case_special_methods():
    class Seq:
        def __init__(self, n):
            self.n = n

        def __len__(self):
            return self.n

        def __getitem__(self, i):
            if i >= self.n:
                raise IndexError(i)
            return i * i

        def __contains__(self, v):
            return v == "magic"

        def __call__(self, *a):
            return ("called", a)

        def __repr__(self):
            return f"Seq({self.n})"

        def __str__(self):
            return "a seq"

        def __format__(self, spec):
            return f"Seq<{spec}>"

        def __index__(self):
            return self.n

    s = Seq(4)
    return [len(s), list(s), s[2], "magic" in s, 3 in s, s(1, 2), repr(s), str(s), f"{s:>5}", [10, 20, 30, 40, 50][s], bin(s), bool(s), attempt(lambda: s[9])]


def case_new_and_init():
    class Singleton:
        _instance = None

        def __new__(cls, *args):
            if cls._instance is None:
                cls._instance = super().__new__(cls)
                cls._instance.created = args
            return cls._instance

        def __init__(self, *args):
            self.inits = getattr(self, "inits", 0) + 1

    class NotSelf:
        def __new__(cls):
            return 42

        def __init__(self):
            raise AssertionError("never called")

    class BadInit:
        def __init__(self):
            return 1

    a = Singleton(1)
    b = Singleton(2)
    return a is b, a.created, a.inits, NotSelf(), attempt(BadInit)


def case_type_call_three_args():
    def method(self):
        return self.v * 2

    Dyn = type("Dyn", (object,), {"v": 21, "method": method})
    Sub = type("Sub", (Dyn,), {"v": 5})
    return Dyn().method(), Sub().method(), Sub.__mro__[1].__name__


def case_class_attribute_mutation_invalidates():
    class A:
        def f(self):
            return 1

    a = A()
    out = [a.f() for _ in range(5)]
    A.f = lambda self: 2
    out += [a.f() for _ in range(5)]
    a.f = lambda: 3
    out += [a.f() for _ in range(3)]
    del a.f
    del A.f
    out.append(attempt(lambda: a.f()))
    A.f = property(lambda self: "prop")
    out.append(a.f)
    return out


def case_builtin_subclasses():
    class MyList(list):
        def sum(self):
            return sum(self)

    class MyDict(dict):
        def __missing__(self, key):
            return key * 2

    class MyInt(int):
        def __add__(self, o):
            return MyInt(int(self) + o + 1000)

    ml = MyList([1, 2, 3])
    ml.append(4)
    md = MyDict(a=1)
    mi = MyInt(5)
    return ml.sum(), ml[1:], type(ml[1:]).__name__, md["a"], md["zz"], mi + 1, type(mi + 1).__name__, 1 + mi


def case_functools_usage():
    class A:
        @functools.cached_property
        def expensive(self):
            self.count = getattr(self, "count", 0) + 1
            return 99

        @functools.lru_cache(maxsize=None)
        def fib(self, n):
            return n if n < 2 else self.fib(n - 1) + self.fib(n - 2)

    a = A()
    return a.expensive, a.expensive, a.count, a.fib(30), functools.partial(pow, 2)(10)


def case_abc():
    import abc

    class Shape(abc.ABC):
        @abc.abstractmethod
        def area(self):
            ...

    class Sq(Shape):
        def __init__(self, s):
            self.s = s

        def area(self):
            return self.s**2

    return Sq(3).area(), attempt(Shape), isinstance(Sq(1), Shape)


@entered("__eq__", "__hash__")
def case_eq_hash_in_sets():
    class Key:
        def __init__(self, v):
            self.v = v

        def __eq__(self, o):
            return isinstance(o, Key) and self.v == o.v

        def __hash__(self):
            return hash(self.v) % 3

    s = {Key(i) for i in range(10)}
    return len(s), Key(3) in s, Key(30) in s, {Key(1): "a"}[Key(1)]


@factory
def case_class_level_counter():
    class Counter:
        instances = 0

        def __init__(self):
            Counter.instances += 1
            type(self).last = self

    def f():
        objs = [Counter() for _ in range(10)]
        return Counter.instances, Counter.last is objs[-1]

    return f, lambda: Counter.instances


@pytest.mark.parametrize("case,args,kwargs", collect(globals()))
def test_case(case, args, kwargs):
    run_case(case, args, kwargs)
