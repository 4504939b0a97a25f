"""Names and calls: locals, globals, builtins, global/nonlocal, closures and cells, del, argument binding."""

import pytest

from harness import collect, factory, run_case, with_args


def attempt(thunk):
    try:
        return thunk()
    except Exception as e:  # noqa: BLE001
        return (type(e).__name__, str(e))


G = 10
G_LIST = [1, 2]


def case_locals_basic():
    a = 1
    b = a + 1
    a, b = b, a
    c = d = a * 10
    c += 1
    return a, b, c, d


def case_many_locals():
    v0 = v1 = v2 = v3 = v4 = v5 = v6 = v7 = v8 = v9 = 1
    v10, v11, v12, v13, v14, v15, v16, v17, v18, v19 = range(10)
    total = v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7 + v8 + v9
    total += v10 + v11 + v12 + v13 + v14 + v15 + v16 + v17 + v18 + v19
    return total, sorted(locals())


def case_global_read():
    return G + 1, G_LIST[0], len(G_LIST)


def case_global_write():
    global G_NEW
    G_NEW = 5
    G_NEW += 1
    r = G_NEW
    del G_NEW
    return r, "G_NEW" in globals(), attempt(lambda: G_NEW)  # noqa: F821


def case_builtins():
    return [len([1, 2]), abs(-3), max(1, 5, 3), min("bca"), isinstance(1, int), sorted({3, 1, 2}), list(zip("ab", (1, 2))), repr(None), type(1.5).__name__, divmod(7, 2), sum(range(10)), any([0, 1]), all([]), chr(65), ord("a")]


def case_global_dict_changes():
    """LOAD_GLOBAL must notice globals and builtins shadowing appearing and disappearing."""
    import builtins

    g = {"__builtins__": builtins}
    exec("def f():\n    return len('abc'), X\nX = 1\n", g)
    f = g["f"]
    out = [f() for _ in range(5)]
    g["len"] = lambda s: 42
    out += [f() for _ in range(5)]
    g["X"] = 2
    out += [f() for _ in range(5)]
    del g["len"]
    out += [f() for _ in range(5)]
    del g["X"]
    out.append(attempt(f))
    g.update({"k%d" % i: i for i in range(100)})  # resize the globals dict
    g["X"] = 3
    out += [f() for _ in range(3)]
    return out


def case_name_errors():
    def read_undefined():
        return undefined_name_xyz  # noqa: F821

    def unbound_local():
        if False:
            x = 1
        return x  # noqa: F821

    def use_before_assign():
        y = y + 1  # noqa: F821
        return y

    def del_then_read():
        z = 1
        del z
        return z  # noqa: F821

    def del_unbound():
        w = 1
        del w
        del w  # noqa: F821

    def del_global_undefined():
        global never_defined_global
        del never_defined_global

    def free_var_unbound():
        def inner():
            return q

        r = inner()
        q = 1
        return r

    def del_cell():
        c = 1

        def inner():
            return c

        del c
        return inner()

    return [attempt(f) for f in (read_undefined, unbound_local, use_before_assign, del_then_read, del_unbound, del_global_undefined, free_var_unbound, del_cell)]


def case_closures_counter():
    def make_counter(start):
        n = start

        def inc(step=1):
            nonlocal n
            n += step
            return n

        def get():
            return n

        return inc, get

    inc, get = make_counter(10)
    a = [inc(), inc(5), get()]
    inc2, get2 = make_counter(0)
    inc2()
    return a, get(), get2()


def case_closure_over_argument():
    def outer(x, *rest, k=3, **kw):
        def inner():
            return x, rest, k, kw

        x += 1  # the argument lives in a cell
        k *= 2
        return inner

    return outer(1, 2, 3, k=4, z=5)(), outer(10)()


def case_closures_loop_variable():
    fns = []
    for i in range(4):
        fns.append(lambda: i)
    late = [f() for f in fns]
    bound = [(lambda i=i: i)() for i in range(4)]
    fns2 = []
    for i in range(3):

        def make(j):
            return lambda: j * 10

        fns2.append(make(i))
    return late, bound, [f() for f in fns2]


def case_nested_scopes_three_levels():
    a = 1

    def f():
        b = 2

        def g():
            c = 3

            def h():
                nonlocal c
                c += a + b
                return c

            return h() + h()

        return g()

    return f()


def case_cell_rebinding_visible():
    x = "before"

    def show():
        return x

    r = [show()]
    x = "after"
    r.append(show())
    del x
    r.append(attempt(show))
    x = "again"
    r.append(show())
    return r


def case_class_scope_lookups():
    x = "function"

    class A:
        y = x  # free variable, read from the class body (LOAD_CLASSDEREF)

    class B:
        x = "class"
        y = x

        def m(self):
            return x  # the function's x, not the class attribute

    class C:
        locals()["x"] = "from locals"
        y = x

    class D:
        z = G  # a global from the class body

    return A.y, B.y, B().m(), C.y, D.z


def case_class_body_assigned_name_skips_enclosing():
    G = "local to the function"  # noqa: F841 - shadows nothing the class body can see

    class A:
        before = G  # LOAD_NAME: class namespace, then module globals, never the function
        G = "class"
        after = G

    return A.before, A.after


def case_defaults():
    def f(a, b=2, c=[]):  # noqa: B006 - the shared default is the point
        c.append(a)
        return a, b, len(c)

    r = [f(1), f(1, 3), f(1, c=[]), f(b=5, a=0)]
    return r, f.__defaults__[0], len(f.__defaults__[1])


def case_keyword_only_and_positional_only():
    def f(a, b, /, c, d=4, *, e, f=6):
        return a, b, c, d, e, f

    return [
        f(1, 2, 3, e=5),
        f(1, 2, c=3, d=0, e=5, f=0),
        f(1, 2, 3, 4, e=5),
        attempt(lambda: f(1, 2, 3)),
        attempt(lambda: f(a=1, b=2, c=3, e=5)),
        attempt(lambda: f(1, 2, 3, 4, 5, e=6)),
        attempt(lambda: f(1, 2, 3, e=5, g=7)),
        attempt(lambda: f(1, 2, 3, c=3, e=5)),
    ]


def case_varargs_kwargs():
    def f(*args, **kwargs):
        return args, kwargs

    def g(a, *args, b=2, **kwargs):
        return a, args, b, sorted(kwargs.items())

    a = [1, 2, 3]
    k = {"x": 1, "y": 2}
    return [
        f(),
        f(1, 2),
        f(*a),
        f(*a, *a),
        f(0, *a, 4),
        f(**k),
        f(**k, z=3),
        f(*a, **k),
        f(*"ab", **{"a": 1}, **{"b": 2}),
        g(1),
        g(*a, b=5, **k),
        g(*range(5)),
        f(*(i for i in range(3))),
        f(**dict(zip("abc", range(3)))),
    ]


def case_arity_errors():
    def f0():
        pass

    def f1(a):
        pass

    def f2(a, b=1):
        pass

    def kw(*, k):
        pass

    def ff(a, **kw):
        pass

    a_list = [1, 2, 3]
    return [
        attempt(lambda: f0(1)),
        attempt(lambda: f1()),
        attempt(lambda: f1(1, 2)),
        attempt(lambda: f2()),
        attempt(lambda: f2(1, 2, 3)),
        attempt(lambda: f2(1, c=2)),
        attempt(lambda: f2(1, a=2)),
        attempt(lambda: kw()),
        attempt(lambda: kw(1)),
        attempt(lambda: f1(*a_list)),
        attempt(lambda: f1(*1)),
        attempt(lambda: f1(**1)),
        attempt(lambda: ff(**{1: 2})),
        attempt(lambda: ff(1, **{"x": 1}, **{"x": 2})),
        attempt(lambda: ff(1, **{"a": 2})),
        attempt(lambda: len()),
        attempt(lambda: len(1, 2)),
        attempt(lambda: a_list[0]()),
        attempt(lambda: f0()()),
        attempt(lambda: "s".upper(1)),
        attempt(lambda: int(x=1)),
    ]


def case_methods_and_bound_calls():
    class K:
        factor = 3

        def m(self, x):
            return x * self.factor

        @staticmethod
        def s(x):
            return x + 1

        @classmethod
        def c(cls, x):
            return cls.__name__, x

    k = K()
    bound = k.m
    unbound = K.m
    return [k.m(2), bound(3), unbound(k, 4), K.s(1), k.s(2), K.c(5), k.c(6), [k.m(i) for i in range(5)], attempt(lambda: K.m(1)), attempt(lambda: unbound())]


def case_call_many_shapes():
    def f(a, b, c=0, *d, e=1, **g):
        return a + b + c + sum(d) + e + sum(g.values())

    total = 0
    for i in range(30):
        total += f(i, 1)
        total += f(i, 1, 2, 3, 4)
        total += f(b=i, a=1)
        total += f(1, 2, e=i, z=3)
        total += f(*[i, i], **{"e": 2})
    return total


def case_builtin_calls_with_keywords():
    return [sorted([3, 1, 2], reverse=True), int("ff", base=16), print.__name__, "a,b".split(sep=","), dict(a=1, b=2), max([1, 3, 2], key=lambda v: -v), round(2.567, ndigits=1)]


@with_args(1, 2)
@with_args(1, b=3)
@with_args(a=4, b=5)
def case_args_from_harness(a, b=0):
    return a * 10 + b


@factory
def case_global_side_effects():
    log = []

    def f():
        for i in range(5):
            log.append(i * i)
        log.sort(reverse=True)
        return len(log)

    return f, lambda: list(log)


def case_locals_and_vars():
    a = 1
    b = "x"

    def inner():
        return a

    loc = locals()
    return sorted(k for k in loc if not k.startswith("@")), loc["a"], inner()


@pytest.mark.parametrize("case,args,kwargs", collect(globals()))
def test_case(case, args, kwargs):
    run_case(case, args, kwargs)


def test_globals_found_through_the_hash_table():
    """LOAD_GLOBAL specializes on names found through the globals' hash table (pa_keys_index):
    modules of 40, 400 and 3,000 names (1- and 2-byte table slots), with and without half
    their names deleted (dummy slots in the probe runs), and a module whose keys are not all
    str (no unicode table: never specialized).  Every read gives the native value and, where
    the form applies, hits LOAD_GLOBAL_MODULE."""
    import pyadapt
    from harness import check

    for size in (40, 400, 3000):
        step = max(1, size // 31)
        read = ["g%d" % i for i in range(0, size, step)][:31]
        src = "def reader():\n    return [(" + ", ".join(read) + ",) for _ in range(40)]\n"
        for deleted in (False, True):
            ns = {"g%d" % i: i for i in range(size)}
            exec(compile(src, "<many-globals>", "exec"), ns)
            if deleted:
                for name in list(ns):
                    if name.startswith("g") and name not in read and hash(name) % 2:
                        del ns[name]
            stats = pyadapt.stats()["specialized"]
            before = stats.get("LOAD_GLOBAL_MODULE", {}).get("hits", 0)
            value = check(ns["reader"])
            assert value[0] == tuple(int(n[1:]) for n in read)
            after = pyadapt.stats()["specialized"]["LOAD_GLOBAL_MODULE"]["hits"]
            assert after - before >= len(read) * 30, (size, deleted, after - before)
    # keys that are not all str: no unicode table, no form, the native value
    ns = {"g0": 1, 1: "int key"}
    exec(compile("def reader2():\n    return [g0 for _ in range(40)]\n", "<mixed>", "exec"), ns)
    assert check(ns["reader2"]) == [1] * 40
