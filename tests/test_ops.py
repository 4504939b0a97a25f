"""Operators: arithmetic, bitwise, comparison, boolean, unary, in-place, subscripts, on every builtin number type."""

import pytest

from harness import collect, run_case, with_args


def attempt(thunk):
    """Call thunk; an exception becomes a (type name, message) result so one case covers many ops."""
    try:
        return thunk()
    except Exception as e:  # noqa: BLE001
        return (type(e).__name__, str(e))


NUMBER_PAIRS = [
    (17, 5),
    (-17, 5),
    (17, -5),
    (0, 3),
    (3, 0),
    (7.5, 2.0),
    (-7.5, 2.0),
    (3, 2.5),
    (2.5, 3),
    (1.0, 0.0),
    (float("inf"), 2.0),
    (float("nan"), 1.0),
    (True, False),
    (True, True),
    (2**70, 3),
    (-(2**70) + 1, 2**65 + 7),
    (3, 2**64),
    (1 + 2j, 3 - 4j),
    (2.0, 1j),
    (0j, 0j),
]


def _apply_pairs(case):
    for a, b in reversed(NUMBER_PAIRS):
        case = with_args(a, b)(case)
    return case


@_apply_pairs
def case_binary_arith(a, b):
    return [
        attempt(lambda: a + b),
        attempt(lambda: a - b),
        attempt(lambda: a * b),
        attempt(lambda: a / b),
        attempt(lambda: a // b),
        attempt(lambda: a % b),
        attempt(lambda: divmod(a, b)),
        attempt(lambda: a @ b),
    ]


@_apply_pairs
def case_power(a, b):
    small = b if not isinstance(b, int) or abs(b) < 200 else 3
    return [attempt(lambda: a**small), attempt(lambda: pow(a, small)), attempt(lambda: (-a) ** 0.5)]


@_apply_pairs
def case_bitwise(a, b):
    return [
        attempt(lambda: a & b),
        attempt(lambda: a | b),
        attempt(lambda: a ^ b),
        attempt(lambda: a << 3),
        attempt(lambda: a >> 2),
        attempt(lambda: a << b if isinstance(b, int) and 0 <= b < 100 else a << -1),
        attempt(lambda: ~a),
    ]


@_apply_pairs
def case_compare(a, b):
    return [
        attempt(lambda: a < b),
        attempt(lambda: a <= b),
        attempt(lambda: a == b),
        attempt(lambda: a != b),
        attempt(lambda: a > b),
        attempt(lambda: a >= b),
        attempt(lambda: a is b),
        attempt(lambda: a is not b),
    ]


@_apply_pairs
def case_unary(a, b):
    return [attempt(lambda: -a), attempt(lambda: +a), attempt(lambda: ~b), attempt(lambda: not a), attempt(lambda: abs(a))]


@_apply_pairs
def case_inplace(a, b):
    def iadd(x):
        x += b
        return x

    def isub(x):
        x -= b
        return x

    def imul(x):
        x *= b
        return x

    def itruediv(x):
        x /= b
        return x

    def ifloordiv(x):
        x //= b
        return x

    def imod(x):
        x %= b
        return x

    def iand(x):
        x &= b
        return x

    def ior(x):
        x |= b
        return x

    def ixor(x):
        x ^= b
        return x

    def ilshift(x):
        x <<= 2
        return x

    def irshift(x):
        x >>= 1
        return x

    def ipow(x):
        x **= 2
        return x

    def imatmul(x):
        x @= b
        return x

    fns = [iadd, isub, imul, itruediv, ifloordiv, imod, iand, ior, ixor, ilshift, irshift, ipow, imatmul]
    return [attempt(lambda: f(a)) for f in fns]


def case_int_loop_crosses_machine_word():
    x = 1
    seen = []
    for i in range(80):
        x = x * 3 + i
        if i % 10 == 0:
            seen.append(x)
    y = x
    while y > 1:
        y //= 7
    return seen, x % 1000003, y, x.bit_length(), -x >> 5, str(x)[:20]


def case_small_int_edges():
    out = []
    for v in (-6, -5, 0, 255, 256, 257, 2**30 - 1, 2**30, 2**31, 2**62, 2**63 - 1, 2**63, 2**64):
        out.append((v + 1, v - 1, v * 2, v // 3, -v, v & 0xFF, v is v + 0))
    return out


def case_float_accumulate():
    total = 0.0
    prod = 1.0
    for i in range(1, 200):
        total += i * 0.1
        prod *= 1.0001
        total -= 0.05 / i
    return total, prod, total / prod, total // 3.0, total % 3.0, -total


def case_float_special():
    inf = float("inf")
    nan = float("nan")
    return [
        inf - inf,
        nan == nan,
        nan != nan,
        nan < 1.0,
        inf > 1e308,
        -0.0,
        0.0 * -1,
        1e308 * 10,
        attempt(lambda: 1e308**2),
        attempt(lambda: 2.0**10000),
        attempt(lambda: 1.0 / 0.0),
        attempt(lambda: 1.0 // 0.0),
        attempt(lambda: 1.0 % 0.0),
        attempt(lambda: 1 / 0),
        attempt(lambda: 1 // 0),
        attempt(lambda: 1 % 0),
        attempt(lambda: (1 + 1j) / 0),
        attempt(lambda: 0.0**-1),
        round(2.675, 2),
        float("1e-320"),
    ]


def case_complex_ops():
    z = complex(3, 4)
    w = 1 - 2j
    return [z + w, z - w, z * w, z / w, abs(z), z.conjugate(), z.real, w.imag, z == 3 + 4j, -z, z**2, attempt(lambda: z < w)]


def case_big_ints():
    a = 3**200
    b = 7**150 + 1
    return [a + b, a - b, a * b, a // b, a % b, divmod(-a, b), a**2 % b, a >> 100, a << 100, a & b, a | b, a ^ b, -a, ~b, a == b, a > b, hex(a)[:30], int(str(b)) == b, pow(a, -1, 1000003)]


def case_bool_arith():
    t, f = True, False
    return [t + t, t * 10, f - t, t / 2, t & f, t | f, t ^ t, ~t, -t, t == 1, f == 0, t is True, sum([t, t, f]), t << 3]


def case_mixed_deopt():
    def add(x, y):
        return x + y

    def sub(x, y):
        return x - y

    def mul(x, y):
        return x * y

    pairs = [(1, 2)] * 6 + [(1.5, 2.5)] * 6 + [("a", "b")] * 6 + [([1], [2])] * 3 + [(1, 2.5)] * 3 + [(2**70, 1)] * 3 + [(True, 2)] * 3 + [(1, 2)] * 3
    out = []
    for x, y in pairs:
        out.append(add(x, y))
        out.append(attempt(lambda: sub(x, y)))
        out.append(attempt(lambda: mul(x, 3)))
    return out


def case_type_errors():
    return [
        attempt(lambda: 1 + "a"),
        attempt(lambda: "a" + 1),
        attempt(lambda: [1] + (2,)),
        attempt(lambda: None + 1),
        attempt(lambda: "a" * 2.0),
        attempt(lambda: -"a"),
        attempt(lambda: ~1.5),
        attempt(lambda: +[1]),
        attempt(lambda: 1 < "a"),
        attempt(lambda: [1] < (1,)),
        attempt(lambda: {} < {}),
        attempt(lambda: 1 @ 2),
        attempt(lambda: 1 << -1),
        attempt(lambda: 1 << 2.0),
        attempt(lambda: object() ** 2),
    ]


def case_string_ops():
    s = "hello"
    t = "World"
    out = [s + t, s * 3, 3 * t, s[1], s[-1], s[1:4], s[::-1], s < t, s > t, s == "hel" + "lo", "ll" in s, "z" not in s]
    out.append("%s-%d-%5.2f-%r-%x-%o-%e-%%" % ("x", 42, 3.14159, "q", 255, 8, 12345.678))
    out.append("%(a)s/%(b)s" % {"a": 1, "b": 2})
    out.append(attempt(lambda: "%d" % "x"))
    out.append(attempt(lambda: "%s %s" % ("one",)))
    acc = ""
    for i in range(50):
        acc += str(i)
    out.append(acc)
    acc2 = s
    acc2 += t
    acc2 += acc2
    out.append(acc2)
    out.append(attempt(lambda: s[10]))
    out.append(b"ab" + b"cd")
    out.append(bytearray(b"x") * 3)
    return out


def case_chained_comparisons():
    calls = []

    def v(x):
        calls.append(x)
        return x

    out = [
        1 < 2 < 3,
        1 < 3 < 2,
        3 > 2 > 1 > 0,
        1 == 1.0 == True,  # noqa: E712
        v(1) < v(2) < v(0) < v(5),
        v(5) > v(3) >= v(3) == v(3) != v(4),
        "a" < "b" <= "b" < "c",
        1 < 2 > 0,
        (1, 2) < (1, 3) < (2,),
        1 in [1, 2] in [[1, 2]],
        attempt(lambda: 1 < "a" < 3),
    ]
    return out, calls


def case_is_and_in():
    a = [1, 2, 3]
    b = a
    c = [1, 2, 3]
    d = {"k": 1, 2: "v"}
    return [
        a is b,
        a is c,
        a is not c,
        a == c,
        None is None,
        2 in a,
        5 in a,
        5 not in a,
        "k" in d,
        1 in d,
        "ell" in "hello",
        3 in range(10),
        10 in range(10),
        3 in {1, 2, 3},
        (1, 2) in [(1, 2)],
        float("nan") in [float("nan")],
        attempt(lambda: 1 in 5),
        attempt(lambda: [] in {}),
    ]


def case_boolean_ops():
    calls = []

    def v(x):
        calls.append(x)
        return x

    out = [
        v(0) and v(1),
        v(2) and v(3),
        v(0) or v(4),
        v(5) or v(6),
        v("") or v([]) or v(None),
        v(1) and v(2) and v(0) and v(3),
        not v(0),
        not v([1]),
        v(None) or v(0) and v(7),
        (v(1) or v(2)) and (v(0) or v(8)),
    ]
    x = 0
    if x or calls:
        out.append("branch")
    if not (x and calls):
        out.append("neg")
    return out, calls


class Vec:
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __add__(self, o):
        if not isinstance(o, Vec):
            return NotImplemented
        return Vec(self.x + o.x, self.y + o.y)

    def __radd__(self, o):
        if o == 0:
            return self
        return NotImplemented

    def __iadd__(self, o):
        self.x += o.x
        self.y += o.y
        return self

    def __mul__(self, k):
        return Vec(self.x * k, self.y * k)

    __rmul__ = __mul__

    def __neg__(self):
        return Vec(-self.x, -self.y)

    def __eq__(self, o):
        return isinstance(o, Vec) and (self.x, self.y) == (o.x, o.y)

    def __lt__(self, o):
        return (self.x, self.y) < (o.x, o.y)

    def __bool__(self):
        return bool(self.x or self.y)

    def __repr__(self):
        return f"Vec({self.x}, {self.y})"

    __hash__ = None


def case_user_operators():
    a = Vec(1, 2)
    b = Vec(3, 4)
    c = a
    c += b
    return [a + b, 2 * a, a * 3, -a, a == Vec(4, 6), a != b, a < b, b > a, sum([Vec(1, 1), Vec(2, 2)]), bool(Vec(0, 0)), c is a, attempt(lambda: a + 1), attempt(lambda: a <= b), attempt(lambda: hash(a))]


def case_subscripts():
    lst = [10, 20, 30, 40]
    tup = (1, 2, 3)
    d = {"a": 1, (1, 2): "t", 3: None}
    s = "abcdef"
    out = [lst[0], lst[-1], tup[1], d["a"], d[(1, 2)], d[3], s[2], lst[True]]
    out.append(attempt(lambda: lst[4]))
    out.append(attempt(lambda: tup[-4]))
    out.append(attempt(lambda: s[100]))
    out.append(attempt(lambda: d["missing"]))
    out.append(attempt(lambda: d[[1]]))
    out.append(attempt(lambda: lst["x"]))
    five = 5
    out.append(attempt(lambda: five[0]))
    out.append(attempt(lambda: lst[2**100]))
    lst[1] = 99
    lst[-1] += 1
    d["new"] = lst
    d[3] = d.get(3, 0) or 7

    def store_oob():
        lst[10] = 1

    def store_str():
        s[0] = "x"

    def store_tuple():
        tup[0] = 1

    out += [attempt(store_oob), attempt(store_str), attempt(store_tuple)]
    del lst[0]
    del d["a"]

    def del_missing():
        del d["nope"]

    out.append(attempt(del_missing))
    out += [lst, d, [[1, 2], [3, 4]][1][0], {"x": {"y": [5]}}["x"]["y"][0]]
    return out


def case_subscript_loop_specialization():
    data = list(range(100))
    m = {i: i * i for i in range(50)}
    total = 0
    for i in range(100):
        total += data[i] + data[-1 - i] + m.get(i, 0) + (m[i] if i < 50 else 0)
        data[i] = total % 97
    text = "abcdefghij" * 5
    chars = [text[i] for i in range(0, 50, 3)]
    return total, data[:10], chars


def case_augmented_targets():
    class Box:
        def __init__(self):
            self.v = 1
            self.items = [1, 2]

    b = Box()
    b.v += 5
    b.v *= 2
    b.items[0] += 100
    b.items += [3]
    d = {"k": [1]}
    d["k"] += [2]
    d["k"][0] -= 1
    lst = [1, 2]
    alias = lst
    lst += [3]
    t = (1,)
    alias_t = t
    t += (2,)
    return b.v, b.items, d, lst is alias, alias, t, alias_t


def case_truthiness():
    class Sized:
        def __len__(self):
            return 0

    class Weird:
        def __bool__(self):
            return 1

    values = [0, 1, -1, 0.0, 0.1, "", "a", [], [0], {}, {0: 0}, set(), (), None, 0j, Sized()]
    out = [bool(v) for v in values]
    out.append(["yes" if v else "no" for v in values])
    out.append(attempt(lambda: bool(Weird())))
    return out


@pytest.mark.parametrize("case,args,kwargs", collect(globals()))
def test_case(case, args, kwargs):
    run_case(case, args, kwargs)
