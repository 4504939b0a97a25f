"""Comprehensions and generator expressions (each is its own code object in 3.11)."""

import sys

import pytest

from harness import collect, entered, run_case


def attempt(thunk):
    try:
        return thunk()
    except Exception as e:  # noqa: BLE001
        return (type(e).__name__, str(e))


def comprehension_codes(*names):
    """The code objects of list, set and dict comprehensions, which must run under pyadapt
    too: none on 3.12+, which inlines them into the function (PEP 709), whose own entry
    the harness proves."""
    return names if sys.version_info < (3, 12) else ()


@entered(*comprehension_codes("<listcomp>"))
def case_list_comprehension():
    return [x * x for x in range(10)]


@entered(*comprehension_codes("<setcomp>", "<dictcomp>"))
def case_set_and_dict_comprehensions():
    words = ["apple", "banana", "avocado", "cherry", "blueberry"]
    return sorted({w[0] for w in words}), {w: len(w) for w in words if len(w) > 5}, {len(w): w for w in words}


@entered("<genexpr>")
def case_generator_expressions():
    g = (x + 1 for x in range(5))
    first = next(g)
    rest = list(g)
    return first, rest, sum(x * x for x in range(100)), any(x > 50 for x in range(100)), max((len(s), s) for s in ["a", "bbb", "cc"]), tuple(c.upper() for c in "abc")


def case_conditions_and_nesting():
    matrix = [[i * 3 + j for j in range(3)] for i in range(4)]
    flat = [v for row in matrix for v in row if v % 2 == 0 if v > 2]
    transposed = [[row[i] for row in matrix] for i in range(3)]
    pairs = [(a, b) for a in range(4) for b in range(a) if (a + b) % 2]
    ternary = ["even" if v % 2 == 0 else "odd" for v in range(5)]
    nested_gen = list(x for row in matrix for x in (row[0], row[-1]))
    return matrix, flat, transposed, pairs, ternary, nested_gen


def case_closures_over_loop_variables():
    fns = [lambda: i for i in range(3)]
    fns_default = [lambda i=i: i for i in range(3)]
    adders = [(lambda n: (lambda x: x + n))(i) for i in range(3)]
    offset = 100
    with_outer = [x + offset for x in range(3)]
    gens = [(x * k for x in range(3)) for k in range(1, 3)]
    return [f() for f in fns], [f() for f in fns_default], [a(10) for a in adders], with_outer, [list(g) for g in gens]


def case_comprehension_scope():
    x = "outer"
    result = [x for x in range(3)]
    y = [[x for _ in range(2)] for x in "ab"]

    class C:
        vals = [1, 2, 3]
        doubled = [v * 2 for v in vals]  # the first iterable is evaluated in class scope
        try:
            broken = [v * len(vals) for v in vals]
        except NameError as e:
            broken = str(e)

    return x, result, y, C.doubled, C.broken


def case_walrus_in_comprehension():
    data = [1, 5, 8, 3, 9]
    big = [y for x in data if (y := x * 2) > 6]
    last = None
    _ = [last := v for v in data]
    total = 0
    sums = [total := total + v for v in data]
    return big, y, last, sums, total


def case_generator_expression_laziness():
    log = []

    def src():
        for i in range(3):
            log.append(f"yield {i}")
            yield i

    g = (log.append(f"use {v}") or v for v in src())
    log.append("created")
    r = list(g)
    bad = (1 / v for v in [1, 0])
    first = next(bad)
    err = attempt(lambda: next(bad))
    after = attempt(lambda: next(bad))
    return log, r, first, err, after


def case_first_iterable_evaluated_eagerly():
    err = attempt(lambda: (x for x in 5))
    log = []

    def it():
        log.append("iter called")
        return iter([1, 2])

    g = (x for x in it())
    log.append("after genexpr")
    return err, log, list(g)


def case_comprehension_errors():
    return [
        attempt(lambda: [x for x in None]),
        attempt(lambda: {x: 1 for x in [[1]]}),
        attempt(lambda: {x for x in [{}]}),
        attempt(lambda: [1 // x for x in range(-2, 3)]),
        attempt(lambda: [a for a, b in [(1, 2), (3,)]]),
    ]


def case_large_comprehensions():
    squares = {i: i * i for i in range(1000)}
    evens = [v for v in squares.values() if v % 2 == 0]
    s = {v % 97 for v in evens}
    return len(squares), sum(evens), len(s), sum(v for v in s)


def case_nested_generator_pipeline():
    nums = range(50)
    evens = (n for n in nums if n % 2 == 0)
    squares = (n * n for n in evens)
    strs = (str(n) for n in squares if n % 3)
    return ",".join(strs)


def case_unpacking_in_comprehension():
    pairs = [(1, "a"), (2, "b"), (3, "c")]
    d = {k: v for k, v in pairs}
    inv = {v: k for k, v in d.items()}
    starred = [(h, t) for h, *t in ["abc", "de", "f"]]
    return d, inv, starred, [[*p, 0] for p in pairs]


@pytest.mark.parametrize("case,args,kwargs", collect(globals()))
def test_case(case, args, kwargs):
    run_case(case, args, kwargs)
