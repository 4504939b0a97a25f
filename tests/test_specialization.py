"""Warm up, then change what a specialized instruction assumed: the result must follow the change.

Every case runs a loop past the warmup so its instructions specialize (and the harness runs each
case 25 times), then changes a type, a class, a dict, a global, a function, or the operand types.
"""

import pytest

from harness import collect, run_case


def attempt(thunk):
    try:
        return thunk()
    except Exception as e:  # noqa: BLE001
        return (type(e).__name__, str(e))


WARM = 8


def case_binary_op_operand_types_change():
    def add(a, b):
        return a + b

    def mul(a, b):
        return a * b

    def sub(a, b):
        return a - b

    out = []
    for operands in ((1, 2), (1.5, 0.25), ("s", "t"), ((1,), (2,)), (2**64, 1), (-1, -(2**63)), (True, True), (1, 0.5), (1 + 1j, 1)):
        for _ in range(WARM):
            r = (add(*operands), attempt(lambda: mul(*operands)), attempt(lambda: sub(*operands)))
        out.append(r)
    return out


def case_int_overflow_in_specialized_add():
    x = 2**62 - 10
    out = []
    for i in range(20):
        x = x + 1
        y = x * 2
        z = -x - x
        out.append((x, y, z, x // 3, x % 7))
    return out[-3:]


def case_float_int_mix_in_compare():
    def lt(a, b):
        return a < b

    out = []
    for pair in ((1, 2), (2.5, 1.0), (1, 1.0), (float("nan"), 1.0), ("a", "b"), (2**70, 2.0**70), (1, 2**64)):
        for _ in range(WARM):
            r = attempt(lambda: lt(*pair))
        out.append(r)
    out.append(attempt(lambda: lt(1, "a")))
    return out


def case_load_attr_instance_shape_changes():
    class P:
        def __init__(self, x):
            self.x = x

    def get(o):
        return o.x

    a = P(1)
    out = [sum(get(a) for _ in range(WARM))]
    b = P(2)
    b.extra = 1  # different attribute layout
    out.append(get(b))
    c = P.__new__(P)
    c.y = 0
    c.x = 3  # added in another order
    out.append(get(c))
    del a.x
    out.append(attempt(lambda: get(a)))
    a.__dict__["x"] = 4
    out.append(get(a))
    P.x = property(lambda self: "property wins", lambda self, v: None)  # data descriptor on the class now shadows the instance dict
    out.append(get(P(5)))
    del P.x
    out.append(get(P(6)))
    return out


def case_class_attribute_and_method_changes():
    class A:
        attr = 1

        def m(self):
            return "A.m"

    class B(A):
        pass

    def call_m(o):
        return o.m()

    def read(o):
        return o.attr

    b = B()
    out = [[call_m(b) for _ in range(WARM)][-1], [read(b) for _ in range(WARM)][-1]]
    A.m = lambda self: "patched A.m"
    out.append(call_m(b))
    B.m = lambda self: "B.m"
    out.append(call_m(b))
    b.m = lambda: "instance m"
    out.append(call_m(b))
    A.attr = 2
    out.append(read(b))
    B.attr = 3
    out.append(read(b))
    b.attr = 4
    out.append(read(b))
    del B.attr
    del b.attr
    out.append(read(b))
    return out


def case_class_gains_getattribute():
    class A:
        def __init__(self):
            self.v = "plain"

    def read(o):
        return o.v

    a = A()
    out = [[read(a) for _ in range(WARM)][-1]]
    A.__getattribute__ = lambda self, name: f"intercepted {name}"
    out.append(read(a))
    del A.__getattribute__
    out.append(read(a))
    A.__getattr__ = lambda self, name: "fallback"
    del a.v
    out.append(read(a))
    return out


def case_dunder_class_assignment():
    class A:
        def who(self):
            return "A"

    class B:
        def who(self):
            return "B"

    def ask(o):
        return o.who()

    o = A()
    out = [[ask(o) for _ in range(WARM)][-1]]
    o.__class__ = B
    out.append(ask(o))
    o.__class__ = A
    out.append(ask(o))
    return out


def case_slots_and_dict_switch():
    class S:
        __slots__ = ("v",)

        def __init__(self):
            self.v = 1

    class D:
        def __init__(self):
            self.v = 2

    def read(o):
        return o.v

    def write(o, x):
        o.v = x
        return o.v

    objs = [S(), D(), S(), D()]
    out = []
    for _ in range(WARM):
        for o in objs:
            out.append(read(o))
            out.append(write(o, read(o) + 1))
    return out[-8:]


def case_global_and_builtin_rebinding():
    ns = {"__builtins__": __builtins__}
    exec(
        "def use():\n"
        "    return helper(), len('xy'), CONST\n"
        "def helper():\n"
        "    return 'helper v1'\n"
        "CONST = 1\n",
        ns,
    )
    use = ns["use"]
    out = [[use() for _ in range(WARM)][-1]]
    exec("def helper():\n    return 'helper v2'\n", ns)
    out.append(use())
    ns["CONST"] = 2
    out.append(use())
    ns["len"] = lambda s: -1
    out.append(use())
    del ns["len"]
    out.append(use())
    del ns["helper"]
    out.append(attempt(use))
    return out


def case_function_defaults_and_code_change():
    def target(a, b=1):
        return ("v1", a, b)

    def call():
        return target(10)

    out = [[call() for _ in range(WARM)][-1]]
    target.__defaults__ = (2,)
    out.append(call())

    def other(a, b=3, c=4):
        return ("v2", a, b, c)

    target.__code__ = other.__code__
    target.__defaults__ = (5, 6)
    out.append(call())
    target.__defaults__ = None
    out.append(attempt(call))
    return out


def case_call_targets_change_kind():
    class K:
        def __init__(self, v):
            self.v = v

    def py(x):
        return ("py", x)

    targets = [py, len, K, str.upper, "abc".count, (lambda x: ("lambda", x)), py, abs]
    out = []
    for t in targets:
        for _ in range(WARM):
            r = attempt(lambda: t("a"))
        out.append(r if not isinstance(r, K) else ("K", r.v))
    return out


def case_builtin_call_shadowed_after_warmup():
    ns = {"__builtins__": __builtins__}
    exec("def f(x):\n    return len(x), isinstance(x, str), type(x).__name__\n", ns)
    f = ns["f"]
    out = [[f("abc") for _ in range(WARM)][-1]]
    ns["isinstance"] = lambda a, b: "shadowed isinstance"
    ns["type"] = lambda a: int
    out.append(f("abc"))
    return out


def case_subscript_container_types_change():
    def get(c, i):
        return c[i]

    def put(c, i, v):
        c[i] = v
        return c[i]

    class L(list):
        def __getitem__(self, i):
            return ("custom", super().__getitem__(i))

    out = []
    for container, index in (([1, 2, 3], 1), ((4, 5, 6), -1), ({"k": 7}, "k"), ("str", 0), (L([8, 9]), 0), ([1], 5), (range(10), 3), (b"xy", 1), ({1: "int key"}, True)):
        for _ in range(WARM):
            r = attempt(lambda: get(container, index))
        out.append(r)
    for container, index in (([0, 0], 0), ({}, "new"), ([0], 3), ((0,), 0), (bytearray(b"ab"), 1)):
        for _ in range(WARM):
            r = attempt(lambda: put(container, index, 65))
        out.append(r)
    return out


def case_unpack_sequence_kinds_change():
    def unpack(v):
        a, b = v
        return a, b

    out = []
    for v in ((1, 2), [3, 4], "xy", {5: 0, 6: 0}, iter([7, 8]), (1, 2, 3), [1], range(2), b"ab"):
        for _ in range(WARM):
            r = attempt(lambda: unpack(v))
        out.append(r)
    return out


def case_for_iter_kinds_change():
    def total(it):
        t = 0
        for v in it:
            t += v
        return t

    def gen(n):
        yield from range(n)

    out = []
    for it_factory in (lambda: [1, 2, 3], lambda: (4, 5), lambda: range(10), lambda: range(2**63, 2**63 + 3), lambda: gen(4), lambda: {1: 0, 2: 0}, lambda: iter([9]), lambda: b"\x01\x02", lambda: range(5, 0, -1)):
        for _ in range(WARM):
            r = total(it_factory())
        out.append(r)
    return out


def case_string_inplace_add_aliasing():
    """`s += t` may append in place only when nobody else holds s."""
    s = "start"
    alias = s
    s += "-more"
    parts = []
    for i in range(20):
        before = s
        s += str(i)
        parts.append(before)
    return alias, s, parts[0], parts[-1], len(parts)


def case_list_inplace_and_alias():
    a = [1]
    b = a
    for i in range(WARM):
        a += [i]
        a = a + [i]  # a new list: b no longer sees it
    return a, b


def case_store_attr_shape_changes():
    class A:
        pass

    def set_x(o, v):
        o.x = v

    objs = []
    for i in range(WARM * 2):
        o = A()
        if i % 3 == 0:
            o.y = "y first"
        set_x(o, i)
        objs.append(sorted(vars(o).items()))
    A.x = property(lambda self: "ro")
    err = attempt(lambda: set_x(A(), 1))
    return objs[:4], err


def case_load_method_vs_instance_attribute():
    class A:
        def m(self):
            return "method"

    def call(o):
        return o.m()

    objs = [A() for _ in range(3)]
    objs[1].m = lambda: "instance attribute"
    out = []
    for _ in range(WARM):
        out.append([call(o) for o in objs])
    return out[-1]


def case_contains_and_compare_specializations():
    def has(c, v):
        return v in c

    out = []
    for c, v in (([1, 2], 2), ({1, 2}, 3), ({"a": 1}, "a"), ("abc", "bc"), ((1,), 1.0), (frozenset([1]), True), (range(5), 4.0)):
        for _ in range(WARM):
            r = has(c, v)
        out.append(r)
    return out


def case_polymorphic_call_site():
    class A:
        def f(self):
            return "A"

    class B:
        def f(self):
            return "B"

    class C(A):
        pass

    class D:
        f = staticmethod(lambda: "D static")

    class E:
        @classmethod
        def f(cls):
            return cls.__name__ + " classmethod"

    class F:
        def __init__(self):
            self.f = lambda: "F instance"

    objs = [A(), B(), C(), D(), E(), F()] * 5
    return [o.f() for o in objs][:6]


def case_star_args_calls():
    # CALL_PY_VARARGS: *args and **kwargs bound from positional arguments (each call its own
    # tuple and dict), a bound method adding self, too few arguments, a keyword call at the
    # same site, a traceback through the callee, a generator function, recursion
    import traceback

    def collect_args(a, *args, **kwargs):
        kwargs.setdefault("n", 0)
        kwargs["n"] += 1
        return (a, args, kwargs)

    def only_kw(a, b, **kwargs):
        return (a, b, kwargs)

    def fails(*args):
        return 1 / len(args[2:])

    def gen(*args):
        yield from args

    def depth(n, *rest):
        return n if n == 0 else depth(n - 1, *rest, n)

    class K:
        def m(self, *args):
            return (type(self).__name__, args)

    k = K()
    out = []
    for i in range(WARM * 3):
        out.append(collect_args(i))
        out.append(collect_args(i, i + 1, None))
        out.append(only_kw(i, 2))
        out.append(attempt(lambda: only_kw(i, 2, 3)))
        out.append(attempt(lambda: only_kw(i)))
        out.append(k.m(i))
        out.append(K.m(k, i))
        out.append(list(gen(i, 1, 2)))
        out.append(depth(3))
        out.append(collect_args(*((i,) if i % 2 else (i, 1))))
        out.append(attempt(lambda: collect_args(i, x=i) if i > WARM else collect_args(i)))
        try:
            fails(1, 2)
        except ZeroDivisionError as e:
            out.append([f.name for f in traceback.extract_tb(e.__traceback__)])
            out.append([f.lineno - fails.__code__.co_firstlineno
                        for f in traceback.extract_tb(e.__traceback__)][-1])
    return out


@pytest.mark.parametrize("case,args,kwargs", collect(globals()))
def test_case(case, args, kwargs):
    run_case(case, args, kwargs)


def test_star_args_call_specializes():
    """logging's `logger.debug(msg)` into `debug(self, msg, *args, **kwargs)`: the site becomes
    CALL_PY_VARARGS and runs the callee inline without the generic binder."""
    import pyadapt

    def debug(self, msg, *args, **kwargs):
        return (msg, args, kwargs)

    class Logger:
        pass

    Logger.debug = debug
    log = Logger()

    def run(n):
        return [log.debug(i) for i in range(n)]

    pyadapt.configure(specialize=True, warmup=2)
    pyadapt.reset_stats()
    assert pyadapt.run(run, 50) == run(50)
    st = pyadapt.stats()
    assert st["specialized"]["CALL_PY_VARARGS"]["hits"] >= 45, st["specialized"]
    assert st["specialized"]["CALL_PY_VARARGS"]["misses"] == 0
