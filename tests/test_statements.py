"""Statements and expressions: loops, del, slicing, unpacking, starred, walrus, lambda, decorators,
exec/eval, print, and what code can see of its own frame."""

import sys
import warnings

import pytest

from harness import collect, factory, run_case


def attempt(thunk):
    try:
        return thunk()
    except Exception as e:  # noqa: BLE001
        return (type(e).__name__, str(e))


def case_loops_with_else():
    out = []
    for i in range(3):
        out.append(i)
    else:
        out.append("for-else")
    for i in range(10):
        if i == 2:
            break
    else:
        out.append("never")
    n = 0
    while n < 3:
        n += 1
    else:
        out.append(("while-else", n))
    while True:
        n -= 1
        if n == 0:
            break
        if n % 2:
            continue
        out.append(("even", n))
    for _ in []:
        out.append("empty")
    else:
        out.append("empty-else")
    return out


def case_nested_loops_break_continue():
    found = []
    for i in range(6):
        if i == 1:
            continue
        for j in range(6):
            if j > i:
                break
            if (i + j) % 3 == 0:
                continue
            found.append((i, j))
        else:
            found.append(("inner-else", i))
    return found


def case_loop_over_many_iterables():
    out = []
    for c in "ab":
        out.append(c)
    for k in {"x": 1, "y": 2}:
        out.append(k)
    for k, v in {"x": 1}.items():
        out.append((k, v))
    for v in (1, 2):
        out.append(v)
    for v in sorted({3, 1}):
        out.append(v)
    for i, v in enumerate("xy", 1):
        out.append((i, v))
    for a, b in zip([1, 2], "ab"):
        out.append((a, b))
    for v in reversed([1, 2, 3]):
        out.append(v)
    for v in range(10, 0, -3):
        out.append(v)
    for v in iter([7, 8]):
        out.append(v)
    for b in b"AB":
        out.append(b)
    return out


def case_mutating_while_iterating():
    d = {1: 1, 2: 2}
    err = None
    try:
        for k in d:
            d[k + 10] = 0
    except RuntimeError as e:
        err = str(e)
    lst = [1, 2, 3]
    for v in lst:
        if v < 3:
            lst.append(v * 10)
        if len(lst) > 8:
            break
    return err, lst


def case_del_statements():
    a = 1
    b = [1, 2, 3, 4, 5, 6]
    c = {"x": 1, "y": 2}

    class O:
        pass

    o = O()
    o.attr = 1
    del a
    del b[0], b[-1]
    del b[1:3]
    del c["x"]
    del o.attr
    out = [b, c, hasattr(o, "attr"), "a" in locals()]
    out.append(attempt(lambda: _del_attr(o)))
    out.append(attempt(lambda: _del_item([], 0)))
    x = y = 1
    del (x, y)
    out.append("x" in locals())
    return out


def _del_attr(o):
    del o.nothing


def _del_item(container, key):
    del container[key]


def case_slicing():
    s = list(range(10))
    t = tuple(s)
    text = "abcdefghij"
    out = [s[2:5], s[:3], s[7:], s[-3:], s[::2], s[::-1], s[8:2:-2], s[100:], s[-100:2], t[1:4], text[::3], text[-1:-4:-1], s[slice(1, 9, 3)]]
    out.append(attempt(lambda: s[::0]))
    out.append(attempt(lambda: s["a":]))
    i, j = 2, 6
    out.append(s[i:j])
    out.append(s[i:])
    out.append(s[:j])
    out.append(b"bytes"[1:3])
    out.append(memoryview(b"abcdef")[1:4].tobytes())
    out.append(range(100)[10:20:3])
    return out


def case_slice_assignment():
    s = list(range(10))
    s[2:4] = ["a", "b", "c"]
    s[:1] = []
    s[-2:] = "xy"
    s[::3] = [0] * len(s[::3])
    out = [list(s)]
    out.append(attempt(lambda: _set_slice(s, slice(None, None, 2), [1])))
    out.append(attempt(lambda: _set_slice((1, 2), slice(0, 1), [1])))
    out.append(attempt(lambda: _set_slice(s, slice(0, 2), 5)))
    del s[::2]
    out.append(s)
    b = bytearray(b"hello")
    b[1:3] = b"EY"
    out.append(bytes(b))
    return out


def _set_slice(seq, sl, value):
    seq[sl] = value


def case_user_getitem_slices():
    class Recorder:
        def __getitem__(self, key):
            return key

        def __setitem__(self, key, value):
            self.last = (key, value)

    r = Recorder()
    out = [r[1], r[1:2], r[::2], r[1:2, 3], r[...], r[:, None], r["k"]]
    r[1:5:2] = "v"
    out.append(r.last)
    return out


def case_unpacking():
    a, b = 1, 2
    (c, d), e = [3, 4], 5
    f, *g = "xyz"
    *h, i = range(4)
    j, *k, l = (1, 2)
    [m, n] = {"m": 1, "n": 2}
    o, = [9]  # noqa
    first, *middle, last = [1, 2, 3, 4, 5]
    x = y = z = 0
    a, b = b, a
    return a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, first, middle, last, (x, y, z)


def case_unpacking_errors():
    def too_few():
        a, b, c = [1, 2]

    def too_many():
        a, b = [1, 2, 3]

    def star_too_few():
        a, b, *c, d = [1, 2]

    def not_iterable():
        a, b = 5

    def too_many_from_gen():
        a, b = (i for i in range(5))

    def nested():
        (a, b), c = [1, 2], 3, 4

    return [attempt(f) for f in (too_few, too_many, star_too_few, not_iterable, too_many_from_gen, nested)]


def case_star_expressions():
    a = [1, 2]
    b = (3,)
    d1 = {"x": 1}
    d2 = {"y": 2, "x": 0}
    out = [
        [*a, *b, 4],
        (*a, *"cd"),
        {*a, *b, 2},
        {**d1, **d2, "z": 3},
        {"x": 9, **d1},
        [*range(3)],
        print.__name__,
        max(*a, *b),
        [*a] + [*b],
        (*a,),
    ]
    out.append(attempt(lambda: [*5]))
    out.append(attempt(lambda: {**[1]}))
    return out


def case_walrus():
    out = []
    data = [5, 3, 8]
    if (n := len(data)) > 2:
        out.append(n)
    while (item := data.pop()) != 3:
        out.append(item)
    out.append((y := 10, y * 2))
    out.append([(z := v) + z for v in range(3)])
    out.append(z)
    return out


def case_lambdas():
    add = lambda a, b=10: a + b  # noqa: E731
    compose = lambda f, g: lambda x: f(g(x))  # noqa: E731
    inc = lambda x: x + 1  # noqa: E731
    dbl = lambda x: x * 2  # noqa: E731
    star = lambda *a, **k: (a, k)  # noqa: E731
    return add(1), add(1, 2), compose(inc, dbl)(5), compose(dbl, inc)(5), star(1, k=2), (lambda: "iife")(), add.__name__, add.__qualname__


def case_decorators():
    log = []

    def trace(tag):
        def deco(fn):
            def wrapper(*a, **k):
                log.append(f"{tag} before {fn.__name__} with {len(a)} args")
                r = fn(*a, **k)
                log.append(f"{tag} after {r}")
                return r

            wrapper.__name__ = fn.__name__
            return wrapper

        return deco

    @trace("outer")
    @trace("inner")
    def add(a, b):
        return a + b

    class C:
        @trace("method")
        def m(self, v):
            return v * 2

        @staticmethod
        @trace("static")
        def s():
            return "s"

    import functools

    def memo(fn):
        cache = {}

        @functools.wraps(fn)
        def w(n):
            if n not in cache:
                cache[n] = fn(n)
            return cache[n]

        return w

    @memo
    def fib(n):
        return n if n < 2 else fib(n - 1) + fib(n - 2)

    return add(1, 2), C().m(4), C.s(), fib(60), fib.__name__, fib.__wrapped__.__name__, log


def case_exec_and_eval():
    x = 10
    out = [eval("x + 1"), eval("[y * 2 for y in range(3)]"), eval("x", {"x": 99}), eval("a + b", {}, {"a": 1, "b": 2})]
    ns = {}
    exec("def f(n):\n    return n * 3\nresult = f(7)\n", ns)
    out.append(ns["result"])
    out.append(ns["f"](2))
    loc = {}
    exec("z = x * 2", globals(), {"x": 5} | loc)
    exec(compile("w = 1\nfor i in range(3):\n    w *= 2\n", "<compiled>", "exec"), ns)
    out.append(ns["w"])
    out.append(attempt(lambda: eval("1 +")))
    out.append(attempt(lambda: eval("undefined_in_eval")))
    out.append(attempt(lambda: exec("raise KeyError('from exec')")))
    g = {}
    exec("import math\nv = math.floor(2.5)", g)
    out.append(g["v"])
    return out


def case_exec_uncaught_traceback():
    code = compile("a = 1\nb = 0\nc = a / b\n", "<generated>", "exec")
    exec(code, {})


def case_print_to_stdout():
    print("hello")
    print(1, 2.5, None, [1, "a"], sep="|", end="!\n")
    print()
    print("no newline", end="")
    print(*range(5))
    print(f"{'fmt':>6}")
    import io

    buf = io.StringIO()
    print("to buffer", file=buf)
    print("captured:", repr(buf.getvalue()))
    sys.stdout.write("direct write\n")
    return "printed"


def case_frame_introspection():
    def inner():
        f = sys._getframe()
        back = f.f_back
        return f.f_code.co_name, f.f_lineno - inner.__code__.co_firstlineno, back.f_code.co_name, sorted(back.f_locals)[:3], f.f_globals is globals()

    marker = 1  # noqa: F841
    result = inner()
    here = sys._getframe()
    return result, here.f_code.co_name, here.f_lineno - case_frame_introspection.__code__.co_firstlineno


def case_inspect_and_traceback_stack():
    import inspect
    import traceback

    def where():
        infos = [inspect.getframeinfo(sys._getframe(depth)) for depth in (0, 1)]
        ex = traceback.extract_stack(limit=2)
        base = case_inspect_and_traceback_stack.__code__.co_firstlineno
        return [(fi.function, fi.lineno - base, fi.code_context[0].strip() if fi.code_context else None, fi.positions) for fi in infos], [(fs.name, fs.line) for fs in ex]

    return where(), inspect.currentframe().f_code.co_name


def case_warnings_stacklevel():
    def deprecated():
        warnings.warn("old api", DeprecationWarning, stacklevel=2)

    def deeper():
        warnings.warn("deeper", UserWarning, stacklevel=3)

    def middle():
        deeper()

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        deprecated()
        middle()
        warnings.warn("direct")
    base = case_warnings_stacklevel.__code__.co_firstlineno
    return [(w.category.__name__, str(w.message), w.lineno - base, w.filename == __file__) for w in caught]


def case_logging_caller_info():
    import io
    import logging

    stream = io.StringIO()
    logger = logging.getLogger("pyadapt.test.logging")
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(funcName)s:%(lineno)d:%(levelname)s:%(message)s"))
    logger.addHandler(handler)
    logger.propagate = False
    logger.setLevel(logging.INFO)
    try:

        def emit():
            logger.info("from emit %d", 5)

        emit()
        logger.warning("from case")
    finally:
        logger.removeHandler(handler)
    base = case_logging_caller_info.__code__.co_firstlineno
    return [ln.split(":")[0] + ":" + str(int(ln.split(":")[1]) - base) + ":" + ":".join(ln.split(":")[2:]) for ln in stream.getvalue().splitlines()]


def case_locals_snapshot_and_update():
    a = 1
    snap = locals()
    b = 2
    snap2 = locals()
    return sorted(snap), sorted(snap2), snap is snap2


def case_globals_and_vars_builtins():
    g = globals()
    return g["__name__"], "case_globals_and_vars_builtins" in g, callable(vars()["g"].get), dir()[:2]


def case_conditional_expressions_and_chains():
    out = []
    for v in (-5, 0, 5, 50):
        out.append("neg" if v < 0 else "zero" if v == 0 else "small" if v < 10 else "big")
    x = 3
    if x > 5:
        out.append(">5")
    elif x > 2:
        out.append(">2")
    elif x > 1:
        out.append(">1")
    else:
        out.append("other")
    if not x:
        out.append("no")
    return out


def case_pass_and_ellipsis_and_docstrings():
    def f():
        """Docstring only."""

    def g():
        ...

    def h():
        pass

    class K:
        "class doc"

    return f(), g(), h(), f.__doc__, K.__doc__, ...


@factory
def case_global_statement_side_effects():
    ns = {}
    exec(
        "counter = 0\n"
        "def bump(n):\n"
        "    global counter\n"
        "    for _ in range(n):\n"
        "        counter += 1\n"
        "    return counter\n",
        ns,
    )
    return (lambda: [ns["bump"](3), ns["bump"](4)]), (lambda: ns["counter"])


def case_large_function_many_constants():
    src = "def big(x):\n    t = 0\n" + "".join(f"    t += x * {i} + {i * 1.5!r}\n    if t > {10 ** 6}: t -= {10 ** 6}\n" for i in range(300)) + "    return t\n"
    ns = {}
    exec(src, ns)
    return [ns["big"](v) for v in (1, 2.5, 7)]


def case_extended_arg_jumps():
    # more than 256 instructions in a loop body and in a branch: EXTENDED_ARG on jumps
    body = "".join(f"        acc = (acc * 31 + {i}) % 1000003\n" for i in range(400))
    src = "def f(n):\n    acc = 0\n    for i in range(n):\n        if i % 2:\n" + body.replace("        ", "            ") + "        else:\n" + body + "    return acc\n"
    ns = {}
    exec(src, ns)
    return ns["f"](5)


def case_annotations_and_type_hints():
    def f(a: int, b: "str" = "x") -> list:
        v: int = 5
        return [a, b, v]

    class C:
        x: int = 1
        y: str

    return f(1), f.__annotations__, C.__annotations__, C.x


@pytest.mark.parametrize("case,args,kwargs", collect(globals()))
def test_case(case, args, kwargs):
    run_case(case, args, kwargs)
