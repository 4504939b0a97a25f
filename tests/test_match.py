"""Structural pattern matching: every pattern kind, guards, binding, and the TypeError cases."""

import collections.abc
import dataclasses

import pytest

from harness import collect, run_case


def attempt(thunk):
    try:
        return thunk()
    except Exception as e:  # noqa: BLE001
        return (type(e).__name__, str(e))


class Pt:
    __match_args__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y


@dataclasses.dataclass
class Circle:
    center: Pt
    r: float


class NoMatchArgs:
    def __init__(self):
        self.a = 1


class BadMatchArgs:
    __match_args__ = ["a"]  # must be a tuple

    a = 1


class DupMatchArgs:
    __match_args__ = ("a", "a")
    a = 1


def classify(v):
    match v:
        case None:
            return "none"
        case True:
            return "true"
        case False:
            return "false"
        case 0:
            return "zero"
        case 1 | 2 | 3:
            return "small"
        case -1:
            return "minus one"
        case 1.5:
            return "one and a half"
        case 2j:
            return "imaginary"
        case "hello" | b"bytes":
            return "literal string"
        case str(s) if len(s) > 10:
            return f"long string {s[:3]}"
        case str() as s:
            return f"string {s}"
        case int(n) if n > 100:
            return f"big int {n}"
        case int(n):
            return f"int {n}"
        case float():
            return "float"
        case []:
            return "empty sequence"
        case [x]:
            return f"one: {x}"
        case [x, y] if x == y:
            return f"pair of equal {x}"
        case [x, y]:
            return f"pair {x},{y}"
        case [first, *middle, last]:
            return f"first {first} middle {middle} last {last}"
        case {"type": "point", "x": x, "y": y}:
            return f"point dict {x},{y}"
        case {"type": t, **rest}:
            return f"typed {t} rest {sorted(rest.items())}"
        case {}:
            return "some mapping"
        case Pt(x=0, y=0):
            return "origin"
        case Pt(0, y):
            return f"on y axis at {y}"
        case Pt(x, 0):
            return f"on x axis at {x}"
        case Circle(Pt(x, y), r=radius) if radius > 10:
            return f"big circle at {x},{y}"
        case Circle(center=Pt(x=cx), r=radius):
            return f"circle cx={cx} r={radius}"
        case Pt() as p:
            return f"point {p.x},{p.y}"
        case _:
            return f"other {type(v).__name__}"


CLASSIFY_INPUTS = [
    None,
    True,
    False,
    0,
    2,
    -1,
    1.5,
    2j,
    "hello",
    b"bytes",
    "a very long string indeed",
    "short",
    1000,
    42,
    3.25,
    [],
    (),
    [7],
    (8, 8),
    [1, 2],
    [1, 2, 3, 4, 5],
    (1, 2, 3),
    "xy",
    {"type": "point", "x": 1, "y": 2},
    {"type": "other", "a": 1, "b": 2},
    {"x": 1},
    {},
    Pt(0, 0),
    Pt(0, 5),
    Pt(3, 0),
    Pt(3, 4),
    Circle(Pt(1, 2), 20),
    Circle(Pt(1, 2), 2),
    object,
    range(3),
]


def case_classify_all():
    return [classify(v) for v in CLASSIFY_INPUTS]


def case_classify_hot_loop():
    out = []
    for _ in range(5):
        for v in CLASSIFY_INPUTS:
            out.append(classify(v))
    return out


def case_capture_and_wildcard_binding():
    def f(v):
        match v:
            case (a, b, *_) if a < b:
                return "asc", a, b
            case (a, *rest):
                return "head", a, rest
            case x:
                return "anything", x

    return [f((1, 2, 3)), f((5, 1)), f([9]), f(7)]


def case_or_patterns_bind_same_names():
    def f(v):
        match v:
            case [x, 0] | [0, x]:
                return f"one zero, other {x}"
            case {"a": x} | {"b": x}:
                return f"a-or-b {x}"
            case (1 | 2) as small:
                return f"small {small}"
            case _:
                return "no"

    return [f([3, 0]), f([0, 4]), f({"b": 5}), f({"a": 6, "b": 7}), f(2), f(9)]


def case_value_patterns():
    import enum

    class Color(enum.Enum):
        RED = 1
        GREEN = 2

    class Consts:
        LIMIT = 10

    def f(v):
        match v:
            case Color.RED:
                return "red"
            case Color.GREEN:
                return "green"
            case Consts.LIMIT:
                return "at limit"
            case _:
                return "other"

    return [f(Color.RED), f(Color.GREEN), f(10), f(1)]


def case_mapping_patterns():
    def f(v):
        match v:
            case {"k": [1, *xs], **rest} if rest:
                return ("list with rest", xs, rest)
            case {"k": {"inner": y}}:
                return ("nested", y)
            case {1: a, "1": b}:
                return ("mixed keys", a, b)
            case {"k": _}:
                return "has k"
            case _:
                return "no"

    import collections

    od = collections.OrderedDict([("k", [1, 2, 3]), ("z", 0)])
    dd = collections.defaultdict(int, {"k": 5})
    return [f({"k": [1, 2], "x": 1}), f({"k": [1, 2]}), f({"k": {"inner": 9}}), f({1: "one", "1": "str one"}), f(od), f(dd), dict(dd), f([("k", 1)])]


def case_sequence_patterns_types():
    def f(v):
        match v:
            case [*_]:
                return "sequence"
            case _:
                return "not a sequence"

    import array
    import collections

    return [f(x) for x in ([1], (1,), "str", b"b", bytearray(b"x"), range(2), collections.deque([1]), array.array("i", [1]), {1: 2}, {1}, iter([1]), memoryview(b"ab"))]


def case_class_patterns_builtins():
    def f(v):
        match v:
            case bool(b):
                return ("bool", b)
            case int(i):
                return ("int", i)
            case str(s):
                return ("str", s)
            case list([a, *_]):
                return ("list", a)
            case tuple((a, b)):
                return ("tuple", a, b)
            case dict({"a": a}):
                return ("dict", a)
            case frozenset():
                return ("frozenset",)
            case _:
                return ("other",)

    return [f(v) for v in (True, 3, "s", [1, 2], (1, 2), {"a": 1}, frozenset(), 1.0)]


def case_abc_and_generic_sequence():
    class MySeq(collections.abc.Sequence):
        def __len__(self):
            return 3

        def __getitem__(self, i):
            if i >= 3:
                raise IndexError(i)
            return i * 10

    class MyMap(collections.abc.Mapping):
        def __getitem__(self, k):
            if k == "a":
                return 1
            raise KeyError(k)

        def __iter__(self):
            return iter(["a"])

        def __len__(self):
            return 1

    def f(v):
        match v:
            case [a, b, c]:
                return ("seq3", a, b, c)
            case {"a": a}:
                return ("map", a)
            case _:
                return "no"

    return f(MySeq()), f(MyMap())


def case_match_type_errors():
    def bad_class(v):
        match v:
            case len():  # not a class
                return "?"

    def too_many_positional(v):
        match v:
            case Pt(1, 2, 3):
                return "?"

    def no_match_args(v):
        match v:
            case NoMatchArgs(1):
                return "?"

    def bad_match_args(v):
        match v:
            case BadMatchArgs(1):
                return "?"

    def dup_attr(v):
        match v:
            case DupMatchArgs(1, 1):
                return "?"

    def dup_kw_positional(v):
        match v:
            case Pt(1, x=1):
                return "?"

    return [
        attempt(lambda: bad_class(1)),
        attempt(lambda: too_many_positional(Pt(1, 2))),
        attempt(lambda: no_match_args(NoMatchArgs())),
        attempt(lambda: bad_match_args(BadMatchArgs())),
        attempt(lambda: dup_attr(DupMatchArgs())),
        attempt(lambda: dup_kw_positional(Pt(1, 2))),
        attempt(lambda: too_many_positional(5)),  # no error: class check fails first
    ]


def case_match_no_case_matches():
    def f(v):
        result = "unset"
        match v:
            case 1:
                result = "one"
        return result

    return f(1), f(2)


def case_match_guard_side_effects():
    log = []

    def check(tag, value):
        log.append(tag)
        return value

    def f(v):
        match v:
            case [x] if check("g1", x > 5):
                return "big single"
            case [x] if check("g2", True):
                return "single"
            case _ if check("g3", False):
                return "never"
            case _:
                return "rest"

    return [f([10]), f([1]), f(3)], log


def case_match_attribute_errors_propagate():
    class Boom:
        __match_args__ = ("x",)

        @property
        def x(self):
            raise RuntimeError("x exploded")

    def f(v):
        match v:
            case Boom(1):
                return "?"
            case _:
                return "no"

    return attempt(lambda: f(Boom()))


@pytest.mark.parametrize("case,args,kwargs", collect(globals()))
def test_case(case, args, kwargs):
    run_case(case, args, kwargs)
