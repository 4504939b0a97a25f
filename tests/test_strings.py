"""f-strings (conversions, format specs, nesting), str.format, and string building."""

import datetime
import decimal

import pytest

from harness import collect, entered, run_case


def attempt(thunk):
    try:
        return thunk()
    except Exception as e:  # noqa: BLE001
        return (type(e).__name__, str(e))


class Fancy:
    def __init__(self, v):
        self.v = v

    def __repr__(self):
        return f"Fancy(r{self.v!r})"

    def __str__(self):
        return f"Fancy(s{self.v})"

    def __format__(self, spec):
        return f"Fancy(f{self.v}:{spec})"


def case_fstring_basic():
    name = "world"
    n = 42
    pi = 3.14159265
    return [f"hello {name}", f"{n}", f"{n + 1}", f"{pi}", f"{name!r}", f"{name!s}", f"{name!a}", f"{'é'!a}", f"{{literal}}", f"{n}{n}{n}", f"", f"a{n}b{name}c"]


def case_fstring_format_specs():
    n = 42
    x = 1234.5678
    s = "txt"
    width = 10
    prec = 3
    return [
        f"{n:5d}|{n:<5}|{n:^5}|{n:>5}|{n:05}|{n:+d}|{-n: d}",
        f"{n:x}|{n:X}|{n:o}|{n:b}|{n:#x}|{n:#b}|{n:,}|{10**9:_}",
        f"{x:.2f}|{x:10.3e}|{x:g}|{x:%}|{x:,.1f}|{x:.0f}",
        f"{s:*^9}|{s:>{width}}|{x:{width}.{prec}f}|{s!r:>8}",
        f"{float('nan'):f}|{float('inf'):>6}|{-0.0:+.1f}",
        f"{datetime.date(2024, 1, 5):%Y/%m/%d}",
        f"{decimal.Decimal('1.10'):.3f}",
        f"{True:d}|{True}|{None!s:>5}",
        attempt(lambda: f"{s:d}"),
        attempt(lambda: f"{n:.2s}"),
        attempt(lambda: f"{x:{'bad spec'}}"),
    ]


@entered(Fancy.__format__, Fancy.__repr__, Fancy.__str__)
def case_fstring_conversions_call_dunders():
    v = Fancy(7)
    return [f"{v}", f"{v!r}", f"{v!s}", f"{v:spec}", f"{v!r:>20}", f"{v!s:<15}|", str(v), repr(v), format(v, "x")]


def case_fstring_nested():
    items = {"a": 1, "b": [1, 2]}
    w = 6
    inner = f"{'|'.join(f'{k}={v}' for k, v in items.items())}"
    nested_spec = f"{3.14159:{w}.{w // 3}f}"
    triple = f"""{f'''{f"{1 + 1}"}'''}"""
    expr = f"{items['b'][-1] * 2} {len(items)} {'yes' if items else 'no'} {(lambda q: q * 2)(4)}"
    dbg_free = f"{[x for x in range(3)]}{ {1: 2}[1] }"
    return inner, nested_spec, triple, expr, dbg_free


def case_fstring_debug_specifier():
    a = 5
    name = "x"
    return [f"{a=}", f"{a = }", f"{name=!s}", f"{a*2=:>4}", f"{name=}"]


def case_fstring_errors_propagate():
    class BadStr:
        def __str__(self):
            raise ValueError("no str")

        def __format__(self, spec):
            raise KeyError(spec)

    b = BadStr()
    return [attempt(lambda: f"{b!s}"), attempt(lambda: f"{b:zz}"), attempt(lambda: f"{b}"), attempt(lambda: f"{undefined_fs}")]  # noqa: F821


def case_fstring_in_loop():
    parts = []
    for i in range(30):
        parts.append(f"{i:03d}:{i * 1.5:.1f}:{i!r}:{'odd' if i % 2 else 'even'}")
    return "".join(parts)


def case_str_format_method():
    return [
        "{} {}".format(1, "a"),
        "{1} {0} {1}".format("x", "y"),
        "{name}:{val:.2f}".format(name="n", val=2.5),
        "{0[0]} {0[1]} {1.real}".format([9, 8], 3 + 4j),
        "{:{w}}|".format("ab", w=5),
        "{!r} {!s}".format("q", Fancy(1)),
        attempt(lambda: "{} {}".format(1)),
        attempt(lambda: "{x}".format()),
        format(255, "#06x"),
        "%-6s|%6.2f|%c" % ("ab", 2.0, 65),
    ]


def case_string_methods():
    s = "  Hello, World  "
    return [
        s.strip(),
        s.lower(),
        s.upper(),
        s.split(","),
        s.strip().split(),
        "-".join(["a", "b", "c"]),
        s.replace("l", "L", 2),
        s.find("World"),
        s.count("l"),
        s.startswith("  H"),
        s.strip().endswith(("x", "ld")),
        "abc".center(9, "*"),
        "a\tb".expandtabs(4),
        "ß".casefold(),
        "title case words".title(),
        "x".zfill(4),
        "a,b,,c".partition(","),
        "a1b2".isalnum(),
        "ABC".translate(str.maketrans("AB", "xy")),
        "%".join("abc"),
        attempt(lambda: "abc".index("z")),
        "😀é".encode("utf-8"),
        b"\xc3\xa9".decode(),
        attempt(lambda: b"\xff".decode("utf-8")),
    ]


def case_string_building_patterns():
    s = ""
    for ch in "abcdefghij":
        s += ch
        s = s + ch.upper()
    parts = []
    for i in range(10):
        parts.append(str(i))
    t = "".join(parts)
    u = "x"
    u *= 5
    return s, t, u, len(s), s[::3]


@pytest.mark.parametrize("case,args,kwargs", collect(globals()))
def test_case(case, args, kwargs):
    run_case(case, args, kwargs)
