"""Proof that the specializer works: each specialized form appears, through pyadapt's own
disassembly, on a case built for it -- and the case gives native results in every
configuration (harness.check runs generic mode and warmups 0, 2 and 50).

A silent fallback to CPython's loop cannot pass: the forms are read from pyadapt's units.
"""
import dis
import math
import types

import pytest

import pyadapt
from pyadapt import _word
from harness import attributes_in_dict_only, check


def opnames(func):
    """Names of pyadapt's instructions, as they are now, in func and the code nested in it."""
    codes = [func.__code__]
    names = []
    while codes:
        code = codes.pop()
        names += [i.opname for i in pyadapt.get_instructions(code)]
        codes += [c for c in code.co_consts if isinstance(c, types.CodeType)]
    return names


def specialize(func, *args):
    """Semantics in every configuration, then the default adaptive mode, warmed up."""
    check(func, args)
    pyadapt.configure(specialize=True, warmup=2)
    for _ in range(3):
        pyadapt.run(func, *args)
    return opnames(func)


# ---- the cases: each one exercises one specialized form in a loop ----

class Plain:
    cls_attr = 7

    def __init__(self, x):
        self.x = x

    def method(self):
        return self.x

    @property
    def prop(self):
        return self.x * 2


class Slotted:
    __slots__ = ("a",)

    def __init__(self, a):
        self.a = a

    def get(self):
        return self.a


class Custom:
    def __getattribute__(self, name):
        return len(name)


class Err(Exception):
    def m(self):
        return 1


class Box:
    def __getitem__(self, i):
        return i * 3


def with_dict():
    o = Plain(1)
    o.__dict__["y"] = 2          # materializes the instance dict
    attributes_in_dict_only(o)
    return o


def f_load_attr_instance_value(n):
    o, t = Plain(3), 0
    for _ in range(n):
        t += o.x
    return t


def f_load_attr_with_hint(n):
    o, t = with_dict(), 0
    for _ in range(n):
        t += o.y
    return t


def f_load_attr_slot(n):
    o, t = Slotted(2), 0
    for _ in range(n):
        t += o.a
    return t


def f_load_attr_module(n):
    t = 0.0
    for _ in range(n):
        t += math.pi
    return t


def f_load_attr_class(n):
    t = 0
    for _ in range(n):
        t += Plain.cls_attr
    return t


def f_load_attr_property(n):
    o, t = Plain(5), 0
    for _ in range(n):
        t += o.prop
    return t


def f_load_attr_getattribute(n):
    o, t = Custom(), 0
    for _ in range(n):
        t += o.abc
    return t


def f_load_method_with_values(n):
    o, t = Plain(4), 0
    for _ in range(n):
        t += o.method()
    return t


def f_load_method_no_dict(n):
    o, t = Slotted(1), 0
    for _ in range(n):
        t += o.get()
    return t


def f_load_method_lazy_dict(n):
    e, t = Err(), 0
    for _ in range(n):
        t += e.m()
    return t


def f_load_method_with_dict(n):
    # a method of instances whose dict exists: materialized (vars) and at a C base's offset
    o, e, t = Plain(2), Err(), 0
    vars(o)["extra"] = 1
    e.extra = 1
    for _ in range(n):
        t += o.method() + e.m()
    return t


def f_load_method_class(n):
    t = 0
    for _ in range(n):
        t += Plain.method(Plain(1))
    return t


def f_load_method_module(n):
    m, t = math, 0.0         # a module in a local: `m.sqrt(i)` compiles to LOAD_METHOD
    for i in range(n):
        t += m.sqrt(i)
    return t


def f_store_attr_instance_value(n):
    o = Plain(0)
    for i in range(n):
        o.x = i
    return o.x


def f_store_attr_with_hint(n):
    o = with_dict()
    for i in range(n):
        o.y = i
    return o.y


def f_store_attr_slot(n):
    o = Slotted(0)
    for i in range(n):
        o.a = i
    return o.a


G = 10


def f_load_global_module(n):
    t = 0
    for _ in range(n):
        t += G
    return t


def f_load_global_builtin(n):
    t = 0
    for _ in range(n):
        t += abs(-1)
    return t


def f_binary_int(n):
    t = 0
    for i in range(n):
        t = t + i * 2 - 1
    return t


def f_binary_float(n):
    t = 1.5
    for _ in range(n):
        t = (t + 0.5) * 1.0 - 0.25
        t = t / 1.5
    return t


def f_numeric_mixed(n):
    t, k, hits = 0.0, 0, 0
    for i in range(n):
        t = t + i * 0.5 - 1          # float + int, int * float, float - int
        k = k + i / 4                # int / int, then int + float
        if t > i:                    # float > int, fused with its jump
            hits += 1
        below = k < 3
    return t, k, hits, below


def f_binary_str(n):
    s = ""
    for _ in range(n):
        s = s + "ab"
        s += "c"
    return s


def f_binary_int_bitwise(n):
    t = 0
    for i in range(n):
        t = (t ^ i) & 0xFFFF | 1
    return t


def f_binary_floordiv_mod(n):
    t = 0
    for i in range(n):
        t += i // 3 + i % 7
    return t


def f_binary_int_two_digits(n):
    # base64's b85 and b32 loops: 32- and 40-bit words, shifts
    t = 0
    for i in range(n):
        w = 4_000_000_000 + i
        t += w // 614125 + w // 85 % 7225 + w % 85 + (w * 85 >> 30) + ((w << 3) & 0x3ff)
    return t


def f_compare_jump(n):
    t = 0
    for i in range(n):
        if i < 5:
            t += 1
        if i * 0.5 > 2.0:
            t += 2
        if str(i) == "3":
            t += 3
    return t


def f_compare_value(n):
    out = []
    for i in range(n):
        out.append(i < 3)
    return out


def f_subscr(n):
    lst, tup, d, box, t = [1, 2, 3], (4, 5, 6), {"k": 7}, Box(), 0
    for i in range(n):
        t += lst[1] + tup[2] + d["k"] + box[i]
    return t


def f_store_subscr(n):
    lst, d = [0, 0, 0], {}
    for i in range(n):
        lst[1] = i
        d[i % 3] = i
    return lst, d


def f_load_attr_nondescriptor(n):
    o = Plain(1)
    t = 0
    for _ in range(n):
        t += o.cls_attr
    return t


class SlottedConst:
    __slots__ = ("a",)
    K = 7

    def __init__(self, a):
        self.a = a


def f_load_attr_nondescriptor_no_dict(n):
    o, t = SlottedConst(1), 0
    for _ in range(n):
        t += o.K
    return t


def f_subscr_str(n):
    s, out = "abc\xe9\xff", []
    for i in range(n):
        out.append(s[i % 5])
    return "".join(out)


def f_array_subscr(n):
    import array
    d, ints = array.array("d", [0.5] * 4), array.array("i", range(4))
    t = 0.0
    for i in range(n):
        d[i % 4] = d[(i + 1) % 4] * 1.5 + ints[i % 4]
        ints[i % 4] = i
        t += d[i % 4]
    return t, d.tolist(), ints.tolist()


def f_unpack(n):
    t = 0
    for i in range(n):
        pair, triple = (i, 1), (1, 2, i)
        a, b = pair
        c, d, e = triple
        f, g = [i, 2]
        t += a + b + c + d + e + f + g
    return t


def f_contains(n):
    d, s, fs = {i: i for i in range(0, 20, 2)}, set(range(0, 20, 3)), frozenset(range(5))
    t = 0
    for i in range(n):
        if i in d:
            t += 1
        if i not in s:
            t += 2
        t += (i in fs) + (str(i) not in d)
    return t


def py_exact(a, b):
    return a + b


def py_defaults(a, b=2):
    return a * b


def f_calls_python(n):
    t = 0
    for i in range(n):
        t += py_exact(i, 1) + py_defaults(i)
        t += Plain(i).x
    return t


def f_calls_builtin(n):
    out = []
    for i in range(n):
        out.append((type(i), str(i), tuple([i]), len(out), isinstance(i, int), float(i),
                    abs(-i), divmod(i, 3), sorted([2, 1], reverse=True)))
    return out


def f_calls_method_descriptors(n):
    s, lst, d, out = set(), [3, 1, 2], {"a": 1}, []
    for i in range(n):
        s.add(i)
        out.append((lst.copy(), d.get("a"), "a,b".split(",")))
        lst.sort(reverse=True)
    return out, sorted(s)


def gen(n):
    for i in range(n):
        yield i


def f_for_iter(n):
    def outer(n):
        yield from gen(n)

    t = 0
    for x in [1, 2, 3] * n:
        t += x
    for x in (1, 2) * n:
        t += x
    for x in range(n):
        t += x
    for x in gen(n):
        t += x
    for x in outer(n):
        t += x
    for i, x in enumerate(reversed([1, 2] * n)):
        t += i * x
    return t


CASES = {
    f_load_attr_instance_value: ["LOAD_ATTR_INSTANCE_VALUE"],
    f_load_attr_with_hint: ["LOAD_ATTR_WITH_HINT"],
    f_load_attr_slot: ["LOAD_ATTR_SLOT"],
    f_load_attr_module: ["LOAD_ATTR_MODULE"],
    f_load_attr_class: ["LOAD_ATTR_CLASS"],
    f_load_attr_property: ["LOAD_ATTR_PROPERTY"],
    f_load_attr_nondescriptor: ["LOAD_ATTR_NONDESCRIPTOR_WITH_VALUES"],
    f_load_attr_nondescriptor_no_dict: ["LOAD_ATTR_NONDESCRIPTOR_NO_DICT"],
    f_load_attr_getattribute: ["LOAD_ATTR_GETATTRIBUTE_OVERRIDDEN"],
    f_load_method_with_values: ["LOAD_METHOD_WITH_VALUES"],
    f_load_method_no_dict: ["LOAD_METHOD_NO_DICT"],
    f_load_method_lazy_dict: ["LOAD_METHOD_LAZY_DICT"],
    f_load_method_with_dict: ["LOAD_METHOD_WITH_DICT"],
    f_load_method_class: ["LOAD_METHOD_CLASS"],
    f_load_method_module: ["LOAD_METHOD_MODULE"],
    f_store_attr_instance_value: ["STORE_ATTR_INSTANCE_VALUE"],
    f_store_attr_with_hint: ["STORE_ATTR_WITH_HINT"],
    f_store_attr_slot: ["STORE_ATTR_SLOT"],
    f_load_global_module: ["LOAD_GLOBAL_MODULE"],
    f_load_global_builtin: ["LOAD_GLOBAL_BUILTIN"],
    f_binary_int: ["BINARY_OP_ADD_INT", "BINARY_OP_SUBTRACT_INT", "BINARY_OP_MULTIPLY_INT"],
    f_binary_float: ["BINARY_OP_ADD_FLOAT", "BINARY_OP_SUBTRACT_FLOAT",
                     "BINARY_OP_MULTIPLY_FLOAT", "BINARY_OP_TRUE_DIVIDE_FLOAT"],
    f_numeric_mixed: ["BINARY_OP_NUMERIC", "COMPARE_OP_NUMERIC", "COMPARE_OP_NUMERIC_JUMP"],
    f_binary_str: ["BINARY_OP_INPLACE_ADD_UNICODE"],
    f_binary_int_bitwise: ["BINARY_OP_INT_BITWISE"],
    f_binary_floordiv_mod: ["BINARY_OP_FLOORDIV_MOD_INT"],
    f_binary_int_two_digits: ["BINARY_OP_FLOORDIV_MOD_INT", "BINARY_OP_INT_BITWISE",
                              "BINARY_OP_MULTIPLY_INT", "BINARY_OP_ADD_INT"],
    f_compare_jump: ["COMPARE_OP_INT_JUMP", "COMPARE_OP_FLOAT_JUMP", "COMPARE_OP_STR_JUMP"],
    f_compare_value: ["COMPARE_OP_INT"],
    f_subscr: ["BINARY_SUBSCR_LIST_INT", "BINARY_SUBSCR_TUPLE_INT", "BINARY_SUBSCR_DICT",
               "BINARY_SUBSCR_GETITEM"],
    f_store_subscr: ["STORE_SUBSCR_LIST_INT", "STORE_SUBSCR_DICT"],
    f_subscr_str: ["BINARY_SUBSCR_STR_INT"],
    f_array_subscr: ["BINARY_SUBSCR_ARRAY_INT", "STORE_SUBSCR_ARRAY_INT"],
    f_unpack: ["UNPACK_SEQUENCE_TWO_TUPLE", "UNPACK_SEQUENCE_TUPLE", "UNPACK_SEQUENCE_LIST"],
    f_contains: ["CONTAINS_OP_DICT", "CONTAINS_OP_SET"],
    f_calls_python: ["CALL_PY_EXACT_ARGS", "CALL_PY_WITH_DEFAULTS", "CALL_PY_CLASS"],
    f_calls_builtin: ["CALL_TYPE_1", "CALL_STR_1", "CALL_TUPLE_1", "CALL_LEN", "CALL_ISINSTANCE",
                      "CALL_LIST_APPEND", "CALL_BUILTIN_CLASS", "CALL_BUILTIN_O",
                      "CALL_BUILTIN_FAST", "CALL_BUILTIN_FAST_WITH_KEYWORDS"],
    f_calls_method_descriptors: ["CALL_METHOD_DESCRIPTOR_O", "CALL_METHOD_DESCRIPTOR_NOARGS",
                                 "CALL_METHOD_DESCRIPTOR_FAST",
                                 "CALL_METHOD_DESCRIPTOR_FAST_WITH_KEYWORDS"],
    f_for_iter: ["FOR_ITER_LIST", "FOR_ITER_TUPLE", "FOR_ITER_RANGE", "FOR_ITER_GEN",
                 "SEND_GEN", "FOR_ITER_ITERNEXT"],
}


@pytest.mark.parametrize("func", list(CASES), ids=lambda f: f.__name__[2:])
def test_family_specializes(func):
    names = specialize(func, 20)
    missing = [n for n in CASES[func] if n not in names]
    assert not missing, f"not specialized: {missing}; instructions now: {names}"


def test_superinstructions():
    def f(a, b):
        c = a
        d = b
        return a + b + c + d
    names = specialize(f, 1, 2)
    if "LOAD_FAST_LOAD_FAST" in {i.opname for i in dis.get_instructions(f)}:
        # CPython's compiler pairs the loads itself (3.13): pyadapt keeps its pair
        assert "LOAD_FAST_LOAD_FAST" in names and "LOAD_FAST__LOAD_FAST" not in names
    else:
        assert "LOAD_FAST__LOAD_FAST" in names
    assert "STORE_FAST__LOAD_FAST" in names or "STORE_FAST__STORE_FAST" in names


def test_generic_mode_specializes_nothing():
    pyadapt.configure(specialize=False)
    try:
        for _ in range(3):
            pyadapt.run(f_binary_float, 20)
        kinds = {i.kind for i in pyadapt.get_instructions(f_binary_float)}
        assert kinds == {"generic"}
    finally:
        pyadapt.configure(specialize=True, warmup=2)
    kinds = {i.kind for i in pyadapt.get_instructions(f_binary_float)}
    assert "generic" in kinds and "specialized" not in kinds   # re-quickened: adaptive again
    pyadapt.run(f_binary_float, 20)
    assert "specialized" in {i.kind for i in pyadapt.get_instructions(f_binary_float)}


# ---- the LWN article's example ----

class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def shifted(self, dx, dy):
        cls = type(self)
        return cls(self.x + dx, self.y + dy)


def walk(p, n, dx, dy):
    for _ in range(n):
        p = p.shifted(dx, dy)
    return p.x, p.y


def test_point_shifted_specializes_then_respecializes_float_to_int():
    pyadapt.configure(specialize=True, warmup=2)
    check(walk, (Point(1.0, 2.0), 50, 0.5, 0.25))
    pyadapt.run(walk, Point(1.0, 2.0), 50, 0.5, 0.25)
    names = [i.opname for i in pyadapt.get_instructions(Point.shifted)]
    for expected in ("LOAD_ATTR_INSTANCE_VALUE", "BINARY_OP_ADD_FLOAT", "LOAD_GLOBAL_BUILTIN",
                     "CALL_TYPE_1", "CALL_PY_CLASS"):
        assert expected in names, names
    assert names.count("BINARY_OP_ADD_FLOAT") == 2

    pyadapt.reset_stats()
    assert pyadapt.run(walk, Point(1, 2), 200, 1, 2) == walk(Point(1, 2), 200, 1, 2)
    names = [i.opname for i in pyadapt.get_instructions(Point.shifted)]
    assert names.count("BINARY_OP_ADD_INT") == 2, names
    s = pyadapt.stats()
    assert s["specialized"]["BINARY_OP_ADD_FLOAT"]["misses"] > 0
    assert s["specialized"]["BINARY_OP_ADD_FLOAT"]["deopts"] == 2
    assert s["specialized"]["BINARY_OP_ADD_INT"]["hits"] > 0
    assert s["families"]["BINARY_OP"]["specialized"] >= 2
    sites = [i for i in pyadapt.get_instructions(Point.shifted) if i.opname == "BINARY_OP_ADD_INT"]
    assert all(i.hits > 0 for i in sites)


def test_failure_kinds_are_named_and_back_off():
    class Weird:
        def __getattr__(self, name):
            return 1

    def f(n):
        w, t = Weird(), 0
        for _ in range(n):
            t += w.anything
        return t

    pyadapt.configure(specialize=True, warmup=0)
    pyadapt.reset_stats()
    try:
        assert pyadapt.run(f, 200) == 200
        site = [i for i in pyadapt.get_instructions(f) if i.family == "LOAD_ATTR"]
    finally:
        pyadapt.configure(specialize=True, warmup=2)
    assert site and site[0].kind == "adaptive" and site[0].failure is not None
    fam = pyadapt.stats()["families"]["LOAD_ATTR"]
    assert fam["failures"] >= 1
    assert all(isinstance(k, str) for k in fam["failure_kinds"])
    # exponential backoff: far fewer attempts than executions
    assert fam["failures"] < 20


def test_specializer_does_not_compile_the_callee():
    """A call site whose callee has no unit yet is not specialized by compiling the callee
    (compiling is the hook's and the loop's decision, compile_after included): the attempt
    fails as "not compiled yet", the generic call compiles the callee, and the attempt after
    the backoff specializes."""
    def callee(x):
        return x + 1

    def caller(n):
        t = 0
        for _ in range(n):
            t = callee(t)
        return t

    pyadapt.configure(specialize=True, warmup=0)
    pyadapt.reset_stats()
    try:
        assert pyadapt.run(caller, 50) == caller(50) == 50
        sites = [i for i in pyadapt.get_instructions(caller) if i.family == "CALL"]
    finally:
        pyadapt.configure(specialize=True, warmup=2)
    kinds = pyadapt.stats()["families"]["CALL"]["failure_kinds"]
    assert any(k.startswith("callee not compiled yet") for k in kinds), kinds
    # range(n), then callee(t)
    assert [i.opname for i in sites] == ["CALL_BUILTIN_CLASS", "CALL_PY_EXACT_ARGS"], sites
    assert sites[1].hits > 40


# ---- dynamism: the program changes its mind after specialization; results stay native
# and pyadapt's statistics show the guard failing (misses, deopts) or re-specializing ----

def dyn_monkeypatch_method(n):
    class C:
        def m(self):
            return 1
    o, t = C(), 0
    for i in range(n):
        if i == n // 2:
            C.m = lambda self: 2
        t += o.m()
    return t


def dyn_descriptor_added(n):
    class C:
        def __init__(self):
            self.x = 1
    o, t = C(), 0
    for i in range(n):
        if i == n // 2:
            C.x = property(lambda self: 10)
        t += o.x
    return t


def dyn_getattr_added_and_attr_deleted(n):
    class C:
        def __init__(self):
            self.x = 1
    o, t = C(), 0
    for i in range(n):
        if i == n // 2:
            del o.x
            C.__getattr__ = lambda self, name: 5
        t += o.x
    return t


def dyn_class_assignment(n):
    class A:
        def __init__(self):
            self.x = 1
    class B(A):
        pass
    o, t = A(), 0
    for i in range(n):
        if i == n // 2:
            o.__class__ = B
            o.x = 3
        t += o.x
    return t


def dyn_dict_materialized(n):
    class C:
        def __init__(self):
            self.x = 1
    o, t = C(), 0
    for i in range(n):
        if i == n // 2:
            o.__dict__["extra"] = 1
            attributes_in_dict_only(o)
        t += o.x
    return t


def dyn_slots_subclass(n):
    class S:
        __slots__ = ("a",)
    class T(S):
        __slots__ = ("b",)
    objs = [S(), T()]
    for o in objs:
        o.a = 2
    t = 0
    for i in range(n):
        t += objs[i * 2 // n].a
    return t


def dyn_global_shadows_builtin(n):
    g = dyn_global_shadows_builtin.__globals__
    t = 0
    try:
        for i in range(n):
            if i == n // 2:
                g["len"] = lambda x: 100
            t += len("ab")
    finally:
        g.pop("len", None)
    return t


def dyn_builtin_rebound(n):
    import builtins
    original = builtins.len
    t = 0
    try:
        for i in range(n):
            if i == n // 2:
                builtins.len = lambda x: 7
            t += len("abc")
    finally:
        builtins.len = original
    return t


def dyn_code_and_defaults_replaced(n):
    # each change gives f a new version, which the site takes into a free slot (a
    # polymorphic site holds three functions of one minimum): the later versions miss
    def f(a, b=1):
        return a + b
    def g(a, b=1):
        return a * b
    t = 0
    for i in range(n):
        if i % (n // 8) == 0 and i:
            f.__defaults__ = (i,)
        if i == 2 * n // 3:
            f.__code__ = g.__code__
        t += f(i)
    return t


def dyn_operand_types(n):
    class MyInt(int):
        pass
    vals = [1, 2.5, True, MyInt(4), 3]
    t = 0
    for i in range(n):
        v = vals[i * len(vals) // n]
        t = t + v
    return t


def dyn_list_resized(n):
    lst, out = list(range(n)), []
    for x in lst:
        if x % 3 == 0 and len(lst) < 2 * n:
            lst.append(x)
        if x % 5 == 0:
            lst.pop(0)
        out.append(x)
    return out


def dyn_generator_raises(n):
    def g():
        for i in range(n):
            if i == n // 2:
                raise ValueError("boom at %d" % i)
            yield i
    t = 0
    try:
        for x in g():
            t += x
    except ValueError as e:
        return t, str(e)


def dyn_property_raises(n):
    class C:
        def __init__(self):
            self.v = 0
        @property
        def p(self):
            if self.v == n // 2:
                raise KeyError(self.v)
            return self.v
    o, t = C(), 0
    for i in range(n):
        o.v = i
        try:
            t += o.p
        except KeyError:
            t -= 1000
    return t


DYNAMIC = {
    dyn_monkeypatch_method: "LOAD_METHOD_WITH_VALUES",
    dyn_descriptor_added: "LOAD_ATTR_INSTANCE_VALUE",
    dyn_getattr_added_and_attr_deleted: "LOAD_ATTR_INSTANCE_VALUE",
    dyn_class_assignment: "LOAD_ATTR_INSTANCE_VALUE",
    dyn_dict_materialized: "LOAD_ATTR_INSTANCE_VALUE",
    dyn_slots_subclass: "LOAD_ATTR_SLOT",
    dyn_global_shadows_builtin: "LOAD_GLOBAL_BUILTIN",
    dyn_builtin_rebound: "CALL_LEN",
    dyn_code_and_defaults_replaced: "CALL_PY_WITH_DEFAULTS",
    dyn_operand_types: "BINARY_OP_ADD_INT",
    dyn_list_resized: None,
    dyn_generator_raises: None,
    dyn_property_raises: None,
}


@pytest.mark.parametrize("func", list(DYNAMIC), ids=lambda f: f.__name__[4:])
def test_dynamism(func):
    check(func, (120,))                       # native results, generic + warmups 0/2/50
    pyadapt.configure(specialize=True, warmup=2)
    pyadapt.reset_stats()
    assert pyadapt.run(func, 120) == func(120)
    form = DYNAMIC[func]
    s = pyadapt.stats()
    if form is not None:
        st = s["specialized"][form]
        assert st["hits"] > 0 and st["misses"] > 0, (form, st)
    else:
        assert sum(f["hits"] for f in s["families"].values()) > 0


# ---- deopts and the wait before the next specialization: a form that paid for itself
# (twice as many hits as the misses that ended it) specializes again after the first wait,
# as CPython's deopts do; one that kept missing waits longer each time ----

class Common:
    __slots__ = ("a",)


class Rare(Common):
    __slots__ = ("b",)


def slots_mixed(n, period):
    """A slot stored and loaded at two sites for `period - 1` Common objects and one Rare:
    different types, so the slot forms' type guard fails on the other one."""
    objs = [Common() for _ in range(period - 1)] + [Rare()]
    t = 0
    for i in range(n):
        o = objs[i % period]
        o.a = i
        t += o.a
    return t


def _fresh(func):
    """`func` with a code object of its own: a unit compiled afresh, whatever earlier tests
    left in the counters of func's unit."""
    return types.FunctionType(func.__code__.replace(), func.__globals__, func.__name__)


def _attr_site_backoffs(func):
    """(kind, backoff exponent) of func's attribute sites."""
    return [(i.kind, _word.backoff(i.caches[_word.COUNTER][1]))
            for i in pyadapt.get_instructions(func) if i.family in ("LOAD_ATTR", "STORE_ATTR")]


@pytest.mark.parametrize("period", [2, 31])
def test_slots_mixed_gives_native_results(period):
    check(slots_mixed, (300, period))


def test_deopt_after_a_paying_run_specializes_again_soon():
    """One Rare in 31: each specialization earns about 1,560 hits before its 52nd miss, so
    after every deopt the site waits 31 executions and specializes again (backoff 1).  When
    each deopt doubled the wait, the two sites ran generic for most of 60,000 iterations
    (waits of 31, 63, ..., 32,767: asyncio's Handle.__init__, also run for TimerHandle)."""
    n, f = 60_000, _fresh(slots_mixed)
    pyadapt.configure(specialize=True, warmup=2)
    pyadapt.reset_stats()
    assert pyadapt.run(f, n, 31) == slots_mixed(n, 31)
    s = pyadapt.stats()
    for form, family in (("STORE_ATTR_SLOT", "STORE_ATTR"), ("LOAD_ATTR_SLOT", "LOAD_ATTR")):
        spec, fam = s["specialized"][form], s["families"][family]
        assert spec["deopts"] >= 20, (form, spec)          # the rare type kept ending it...
        assert spec["hits"] > 0.9 * n, (form, spec)         # ...and it kept specializing
        assert fam["deferred"] < 0.05 * n, (family, fam)
    assert all(backoff <= 1 for _, backoff in _attr_site_backoffs(f))


def test_deopt_of_a_form_that_kept_missing_backs_off():
    """Common and Rare alternating: each specialization ends with as many misses as hits,
    so each deopt waits twice as long as the one before (few attempts, long waits)."""
    n, f = 60_000, _fresh(slots_mixed)
    pyadapt.configure(specialize=True, warmup=2)
    pyadapt.reset_stats()
    assert pyadapt.run(f, n, 2) == slots_mixed(n, 2)
    s = pyadapt.stats()
    spec = s["specialized"]["STORE_ATTR_SLOT"]
    assert 5 <= spec["deopts"] <= 12, spec
    assert s["families"]["STORE_ATTR"]["deferred"] > 0.5 * n
    assert max(backoff for _, backoff in _attr_site_backoffs(f)) >= 5


# ---- borrowed descriptors: a descriptor of one class placed on an unrelated class.  Natively
# every access raises TypeError; a specialized form that trusted the descriptor would read or
# write memory of the wrong layout (CPython's test_opcache, issue 10). ----

class SlotOwner:
    __slots__ = ("slot", "other")


class SlotOwnerChild(SlotOwner):
    __slots__ = ()
    inherited = SlotOwner.slot          # a base's descriptor: valid, and specializes


class Borrower:
    borrowed = SlotOwner.slot


class ShadowingBorrower:
    __slots__ = ("own",)                # an object pointer at the same offset as SlotOwner.slot
    borrowed = SlotOwner.slot


class MethodBorrower:
    append = list.append                # method descriptor (LOAD_METHOD + CALL_LIST_APPEND)
    upper = str.upper                   # METH_NOARGS method descriptor
    init = dict.__init__                # slot wrapper
    fromkeys = dict.__dict__["fromkeys"]  # classmethod descriptor
    real = complex.__dict__["real"]     # member descriptor of a C type (T_DOUBLE)
    func_name = type(len).__dict__["__name__"]  # getset descriptor


def _count_outcomes(n, op):
    out = {}
    for _ in range(n):
        try:
            r = op()
            key = "ok %s" % type(r).__name__
        except TypeError as e:
            key = "TypeError: %s" % e
        out[key] = out.get(key, 0) + 1
    return out


def borrowed_slot_load(n):
    o = Borrower()
    return _count_outcomes(n, lambda: o.borrowed)


def borrowed_slot_store(n):
    o = Borrower()

    def store():
        o.borrowed = 42
    return _count_outcomes(n, store), vars(o)


def borrowed_slot_shadowing(n):
    o = ShadowingBorrower()
    o.own = "own"

    def store():
        o.borrowed = 42
    return (_count_outcomes(n, lambda: o.borrowed), _count_outcomes(n, store), o.own)


def borrowed_slot_delete(n):
    o = Borrower()

    def delete():
        del o.borrowed
    return _count_outcomes(n, delete)


def borrowed_methods(n):
    o = MethodBorrower()
    ops = [lambda: o.append(1), lambda: o.upper(), lambda: o.init(), lambda: o.fromkeys("ab"),
           lambda: o.real, lambda: o.func_name, lambda: MethodBorrower.append(o, 1),
           lambda: MethodBorrower.upper(o)]
    return [_count_outcomes(n, op) for op in ops]


def inherited_slot(n):
    o, t = SlotOwnerChild(), 0
    o.slot = 1
    for _ in range(n):
        o.inherited = o.inherited + 1
        t += o.inherited
    return t


@pytest.mark.parametrize("func", [borrowed_slot_load, borrowed_slot_store, borrowed_slot_shadowing,
                                  borrowed_slot_delete, borrowed_methods],
                         ids=lambda f: f.__name__)
def test_borrowed_descriptor_raises_type_error(func):
    check(func, (60,))
    native = func(60)
    assert "TypeError" in repr(native)        # the case shows what it was written for
    pyadapt.configure(specialize=True, warmup=0)
    try:
        assert pyadapt.run(func, 60) == native
    finally:
        pyadapt.configure(specialize=True, warmup=2)
    assert "LOAD_ATTR_SLOT" not in opnames(func) and "STORE_ATTR_SLOT" not in opnames(func)


def test_borrowed_slot_fails_with_its_own_kind_and_inherited_slot_specializes():
    lam = [c for f in (borrowed_slot_load, borrowed_slot_store)
           for c in f.__code__.co_consts if isinstance(c, types.CodeType)]
    pyadapt.configure(specialize=True, warmup=0)
    try:
        pyadapt.run(borrowed_slot_load, 20)
        pyadapt.run(borrowed_slot_store, 20)
        # read before configure() below re-quickens the units (and clears their counters)
        failures = {i.failure for c in lam for i in pyadapt.get_instructions(c)
                    if i.family in ("LOAD_ATTR", "STORE_ATTR")}
    finally:
        pyadapt.configure(specialize=True, warmup=2)
    assert failures == {"member descriptor of a class the object is not an instance of"}
    names = specialize(inherited_slot, 50)
    assert "LOAD_ATTR_SLOT" in names and "STORE_ATTR_SLOT" in names


# ---- polymorphic instance values: LOAD_ATTR_/STORE_ATTR_INSTANCE_VALUE hold up to three
# types that keep the attribute at the same index (subclasses sharing an __init__) ----

class PolyBase:
    def __init__(self, x):
        self.x = x
        self.y = -x


class PolyA(PolyBase):
    pass


class PolyB(PolyBase):
    pass


class PolyC(PolyBase):
    pass


class PolyOtherOrder:
    def __init__(self, x):
        self.y = -x
        self.x = x                       # x at another index than in PolyBase instances


def poly_three_types(n):
    objs = [PolyA(1), PolyB(2), PolyC(3)]
    t = 0
    for i in range(n):
        o = objs[i % 3]
        o.x = o.x + 1                    # LOAD_ATTR and STORE_ATTR see three types
        t += o.x
    return t, [o.x for o in objs]


def poly_four_types_and_other_index(n):
    objs = [PolyA(1), PolyB(2), PolyC(3), PolyBase(4), PolyOtherOrder(5)]
    t = 0
    for i in range(n):
        o = objs[i % 5]
        o.x = o.x + 1
        t += o.x + o.y
    return t


def poly_class_changes_under_the_site(n):
    objs = [PolyA(1), PolyB(2), PolyC(3)]
    t = []
    for i in range(n):
        if i == n // 2:
            # a data descriptor on one of the three types: it takes precedence over the
            # instance value, and the type's version changes
            PolyB.x = property(lambda self: 1000, lambda self, v: t.append(("set", v)))
        o = objs[i % 3]
        o.x = o.x + 1
        t.append(o.x)
    del PolyB.x
    return t


def test_polymorphic_instance_values_hold_three_types():
    pyadapt.reset_stats()
    names = specialize(poly_three_types, 90)
    assert "LOAD_ATTR_INSTANCE_VALUE" in names and "STORE_ATTR_INSTANCE_VALUE" in names
    pyadapt.reset_stats()
    assert pyadapt.run(poly_three_types, 300) == poly_three_types(300)
    s = pyadapt.stats()["specialized"]
    for form, sites in (("LOAD_ATTR_INSTANCE_VALUE", 2), ("STORE_ATTR_INSTANCE_VALUE", 1)):
        assert s[form]["hits"] >= 300 * sites and s[form]["misses"] == 0, (form, s[form])


def poly_new_class_each_time(n):
    # a fresh class per iteration: its shared keys do not hold the name before the first
    # store, so adding its type to the store site must fail (and the store go generic)
    out = []
    for i in range(n):
        class Fresh:
            def __init__(self, v):
                self.v = v

        out.append(Fresh(i).v)
    return out


def test_polymorphic_instance_values_fourth_type_goes_megamorphic():
    """Five types (one with the attribute at another index): the fourth takes the load to
    LOAD_ATTR_INSTANCE_VALUE_MEGA (the shared attribute table), which holds them all (no miss);
    the store keeps its three type slots, and misses for the other two."""
    check(poly_four_types_and_other_index, (120,))
    pyadapt.configure(specialize=True, warmup=2)
    pyadapt.reset_stats()
    want = poly_four_types_and_other_index(300)
    assert [pyadapt.run(poly_four_types_and_other_index, 300) for _ in range(2)] == [want] * 2
    s = pyadapt.stats()["specialized"]
    mega = s["LOAD_ATTR_INSTANCE_VALUE_MEGA"]
    assert mega["hits"] >= 300 and mega["misses"] == 0, mega
    store = s["STORE_ATTR_INSTANCE_VALUE"]
    assert store["hits"] > 0 and store["misses"] > 0, store


@pytest.mark.parametrize("func", [poly_class_changes_under_the_site,
                                  poly_new_class_each_time], ids=lambda f: f.__name__)
def test_polymorphic_instance_values_guards(func):
    check(func, (120,))
    pyadapt.configure(specialize=True, warmup=2)
    pyadapt.reset_stats()
    assert pyadapt.run(func, 120) == func(120)
    # a new class per iteration takes the load megamorphic at the fourth; that form enters
    # 64 types into the shared table and then misses
    s = pyadapt.stats()["specialized"]
    forms = [s[f] for f in ("LOAD_ATTR_INSTANCE_VALUE", "LOAD_ATTR_INSTANCE_VALUE_MEGA")]
    assert sum(f["hits"] for f in forms) > 0 and sum(f["misses"] for f in forms) > 0, forms


class PolyConstraint:
    """deltablue's shape: a base __init__ sets the shared attributes, and one subclass sets
    its own before calling it, so its instances keep them at other indexes."""

    def __init__(self, a, b):
        self.a = a
        self.b = b


class PolyEqual(PolyConstraint):
    pass


class PolyScale(PolyConstraint):
    def __init__(self, a, b, scale):
        self.scale = scale               # a and b one index later than in PolyEqual
        super().__init__(a, b)


class PolyWide(PolyConstraint):
    def __init__(self, a, b):
        for k in range(70):              # a and b past index 63: no type slot holds them
            setattr(self, "w%d" % k, k)
        super().__init__(a, b)


def poly_orders(n):
    objs = [PolyEqual(1, 2), PolyScale(3, 4, 5), PolyConstraint(6, 7)]
    t = 0
    for i in range(n):
        o = objs[i % 3]
        o.a = o.a + o.b                  # loads and a store over three orders
        t += o.a
    return t, [(o.a, o.b) for o in objs]


def poly_orders_guards(n):
    objs = [PolyEqual(1, 2), PolyScale(3, 4, 5)]
    out = []
    for i in range(n):
        o = objs[i % 2]
        if i == n // 4:
            vars(objs[1])                # the held second type's values move to a dict
        if i == n // 2:
            del objs[1].b                # a held index becomes empty: AttributeError
        if i == 3 * n // 4:
            PolyScale.b = property(lambda self: -1, lambda self, v: out.append(("set", v)))
        try:
            o.b = o.a + o.b              # the store and the load of b through the slot
            out.append(o.b)
        except AttributeError as exc:
            out.append(str(exc))
            o.b = 0
    del PolyScale.b
    return out


def poly_wide(n):
    objs = [PolyEqual(1, 2), PolyWide(3, 4)]
    t = 0
    for i in range(n):
        t += objs[i % 2].b
    return t


def test_polymorphic_instance_values_hold_other_indexes():
    """Three types whose instances keep the attribute at different indexes share one site:
    every execution is a hit, with no miss and no deopt (deltablue's BinaryConstraint methods
    over EqualityConstraint and ScaleConstraint deoptimized and ran generically)."""
    check(poly_orders, (90,))
    pyadapt.configure(specialize=True, warmup=2)
    pyadapt.run(poly_orders, 9)
    pyadapt.reset_stats()
    assert pyadapt.run(poly_orders, 300) == poly_orders(300)
    s = pyadapt.stats()["specialized"]
    # the loop's sites, and the two loads of the result and the two stores of __init__ over
    # the three objects
    for form, hits in (("LOAD_ATTR_INSTANCE_VALUE", 300 * 3 + 6),
                       ("STORE_ATTR_INSTANCE_VALUE", 300 + 6)):
        assert s[form]["hits"] == hits, (form, s[form])
        assert s[form]["misses"] == 0 and s[form]["deopts"] == 0, (form, s[form])
    # dis shows the other types' slots, with an index other than the first type's
    (store,) = [i for i in pyadapt.get_instructions(poly_orders)
                if i.opname == "STORE_ATTR_INSTANCE_VALUE"]
    caches = dict(store.caches)
    from pyadapt import _word
    slots = [caches["version_2"], caches["version_3"]]
    assert all(_word.type_slot_version(v) for v in slots), caches
    assert {_word.type_slot_index(v) for v in slots} | {caches["index"]} == {0, 1}, caches


@pytest.mark.parametrize("func", [poly_orders_guards, poly_wide], ids=lambda f: f.__name__)
def test_polymorphic_instance_values_other_index_guards(func):
    check(func, (120,))
    pyadapt.configure(specialize=True, warmup=2)
    pyadapt.reset_stats()
    assert pyadapt.run(func, 120) == func(120)
    s = pyadapt.stats()["specialized"]["LOAD_ATTR_INSTANCE_VALUE"]
    assert s["hits"] > 0 and (s["misses"] > 0 or s["deopts"] > 0), s


# PyTypeObject's tp_version_tag and tp_flags, as byte offsets (3.11-3.13 alike): after the
# object header (ob_refcnt, ob_type, ob_size), 45 and 18 pointer-sized fields
_TP_VERSION_TAG_OFFSET = 24 + 45 * 8
_TP_FLAGS_OFFSET = 24 + 18 * 8


class PolyHigh(PolyConstraint):
    def __init__(self, a, b):
        self.scale = 0                   # a and b one index later than in PolyEqual
        super().__init__(a, b)


def _force_type_version(cls, version):
    """Give `cls` the type version `version` in place (no Python API sets one; CPython hands
    them out from a counter that a test cannot run up to 2**26).  The layout is checked on
    tp_flags first, so a layout this does not know fails the test instead of writing
    elsewhere."""
    import ctypes
    base = id(cls)
    flags = ctypes.c_ulong.from_address(base + _TP_FLAGS_OFFSET)
    assert flags.value == cls.__flags__, "PyTypeObject layout not as assumed"
    tag = ctypes.c_uint.from_address(base + _TP_VERSION_TAG_OFFSET)
    assert tag.value != 0 and tag.value < 2 ** 26, tag.value   # a valid tag, from the counter
    tag.value = version


def poly_high(n, objs):
    t = 0
    for i in range(n):
        t += objs[i % 2].b
    return t


@pytest.mark.parametrize("version", [None, 2 ** 26 - 1, 2 ** 26, 2 ** 32 - 5],
                         ids=["counter", "top-fitting", "too-high", "far-too-high"])
def test_polymorphic_instance_values_type_version_must_fit(version):
    """A type slot packs the type version in 26 bits: a type whose version does not fit is
    not held (the site misses for it and gives the right value); one that fits is."""
    class High(PolyHigh):
        pass
    objs = [PolyEqual(1, 2), High(3, 4)]
    assert objs[1].b == 4                # the type has a valid version tag now
    if version is not None:
        _force_type_version(High, version)
    want = poly_high(60, objs)
    # a code object of its own per case: the site sees exactly these two types (a site shared
    # by the cases met each case's High, and took the fourth megamorphic)
    import types
    code = poly_high.__code__.replace(co_name="poly_high_%s" % (version,))
    run_high = types.FunctionType(code, poly_high.__globals__)
    pyadapt.configure(specialize=True, warmup=2)
    pyadapt.reset_stats()
    assert pyadapt.run(run_high, 60, objs) == want
    s = pyadapt.stats()["specialized"]["LOAD_ATTR_INSTANCE_VALUE"]
    loads = [i for i in pyadapt.get_instructions(run_high)
             if i.opname == "LOAD_ATTR_INSTANCE_VALUE"]
    if version is None or version < 2 ** 26:
        assert s["misses"] == 0 and s["deopts"] == 0, s
        (load,) = loads
        caches = dict(load.caches)
        held = [_word.type_slot_version(caches[k]) for k in ("descr_lo", "descr_hi")]
        assert (version or held[0]) in held, (version, caches)
    else:
        # the site missed for High (and may have deoptimized, then taken High as its first
        # type, whose field is 32 bits wide): no type slot held High's version, truncated
        assert s["misses"] > 0, s
        for load in loads:
            caches = dict(load.caches)
            for k in ("descr_lo", "descr_hi"):
                held = _word.type_slot_version(caches[k])
                assert not held or held != version % 2 ** 26, caches


class PolyDisc:
    def __init__(self, r):
        self.r = r

    def area(self):
        return 3 * self.r * self.r


class PolyBox:
    def __init__(self, side):
        self.side = side

    def area(self):
        return self.side * self.side


class PolyStrip:
    def __init__(self, w):
        self.w = w

    def area(self):
        return self.w


class PolyDot:
    def area(self):
        return 0


def poly_calls(n):
    shapes = [PolyDisc(1), PolyBox(2), PolyStrip(3), PolyDot()]
    t = 0
    for i in range(n):
        t += shapes[i % 4].area()
    return t


def test_polymorphic_call_holds_four_functions():
    names = specialize(poly_calls, 40)
    assert "CALL_PY_EXACT_ARGS" in names
    pyadapt.reset_stats()
    assert pyadapt.run(poly_calls, 400) == poly_calls(400)
    s = pyadapt.stats()["specialized"]["CALL_PY_EXACT_ARGS"]
    assert s["hits"] >= 400 and s["misses"] == 0, s


def test_two_digit_ints_hit_without_misses():
    """Ints of two digits (base64's 32- and 40-bit words) stay on the int forms: every
    execution a hit, no miss and no deopt (they used to miss // and % and deopt)."""
    check(f_binary_int_two_digits, (300,))
    pyadapt.configure(specialize=True, warmup=2)
    try:
        pyadapt.run(f_binary_int_two_digits, 5)
        pyadapt.reset_stats()
        assert pyadapt.run(f_binary_int_two_digits, 300) == f_binary_int_two_digits(300)
        spec = pyadapt.stats()["specialized"]
        forms = ("BINARY_OP_FLOORDIV_MOD_INT", "BINARY_OP_INT_BITWISE", "BINARY_OP_MULTIPLY_INT")
        for form in forms:
            assert spec[form]["misses"] == 0 and spec[form]["deopts"] == 0, (form, spec[form])
        assert spec["BINARY_OP_FLOORDIV_MOD_INT"]["hits"] == 4 * 300
        assert spec["BINARY_OP_INT_BITWISE"]["hits"] == 3 * 300
        assert pyadapt.stats()["families"]["BINARY_OP"]["deferred"] == 0
    finally:
        pyadapt.configure(specialize=True, warmup=2)


def _int_ops_over(pairs):
    out = []
    for a, b in pairs:
        r = [a + b, a - b, a * b, a & b, a | b, a ^ b]
        ops = [lambda: a // b, lambda: a % b, lambda: a >> b]
        if b < 130:
            ops.append(lambda: a << b)     # no 2**59-bit results
        for f in ops:
            try:
                r.append(f())
            except (ZeroDivisionError, ValueError) as e:
                r.append(type(e).__name__)
        out.append(r)
    return out


def test_two_digit_int_ops_match_native_on_random_operands():
    """Random operands around the one- and two-digit boundaries (fixed seed), both signs:
    the int forms' C paths give what int's own methods give."""
    import random
    rnd = random.Random(1234)
    edges = [0, 1, 2, 3, 29, 30, 31, 59, 60, 61, 62, 63, 64, 65]
    pairs = []
    for _ in range(3000):
        a = rnd.choice([1, -1]) * (rnd.getrandbits(rnd.choice(edges)) + rnd.choice([0, 0, 1, -1]))
        b = rnd.choice([1, -1, 1]) * (rnd.getrandbits(rnd.choice(edges[:9])) + rnd.choice([0, 1, -1]))
        pairs.append((a, b))
    expected = _int_ops_over(pairs)
    pyadapt.configure(specialize=True, warmup=2)
    assert pyadapt.run(_int_ops_over, pairs) == expected
    assert pyadapt.stats()["specialized"]["BINARY_OP_FLOORDIV_MOD_INT"]["hits"] > 0
