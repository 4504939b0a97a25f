"""The handlers of the rows 3.13's bytecode lowers to, run on this version.

3.13 stays refused until its loop work is done, but these rows' handlers are in every build.
To run one here, a 3.11 opcode's decoder entry is pointed at it for the length of a test
(tests/test_decoder.py's ``_entry``), with an instruction of the same stack shape: the
function compiled then runs the row's handler where 3.11's instruction was.  3.13's call
layout (its PUSH_NULL after the callable's load) is made by swapping two 3.11 instructions of a
fresh code object; natively such code would crash, so those run in a subprocess.
"""
import subprocess
import sys
import textwrap

import pytest

import pyadapt

from test_decoder import _entry, _fresh, _words
from pyadapt._compiler import OPS

pytestmark = pytest.mark.skipif(sys.version_info[:2] != (3, 11),
                                reason="lowers 3.11 opcodes to the rows of 3.13's")


class Falsy:
    def __bool__(self):
        return False


class BoolRaises:
    def __bool__(self):
        raise ZeroDivisionError("no truth")


def _run_as(cpy_name, row, src, *args):
    with _entry(cpy_name, pa_op=OPS[row].code):
        code = _fresh(src)
        assert row in [name for name, _ in _words(code)]
        f = type(lambda: 0)(code, {})
        return pyadapt.run(f, *args)


@pytest.mark.parametrize("value, want", [(3, True), (0, False), ([], False), (Falsy(), False),
                                         (True, True), ("x", True)])
def test_to_bool(value, want):
    assert _run_as("UNARY_POSITIVE", "TO_BOOL", "def f(x):\n    return +x\n", value) is want


def test_to_bool_raises_what_bool_raises():
    with pytest.raises(ZeroDivisionError, match="no truth"):
        _run_as("UNARY_POSITIVE", "TO_BOOL", "def f(x):\n    return +x\n", BoolRaises())


@pytest.mark.parametrize("value", [3, "s", 2.5, None, [1]])
def test_format_simple(value):
    assert _run_as("UNARY_POSITIVE", "FORMAT_SIMPLE", "def f(x):\n    return +x\n",
                   value) == format(value)


@pytest.mark.parametrize("value, spec", [(3.14159, ".2f"), (42, ">5"), ("ab", "^6")])
def test_format_with_spec(value, spec):
    assert _run_as("BINARY_OP", "FORMAT_WITH_SPEC", "def f(x, y):\n    return x + y\n",
                   value, spec) == format(value, spec)


def test_format_with_spec_raises_what_format_raises():
    with pytest.raises(ValueError):
        _run_as("BINARY_OP", "FORMAT_WITH_SPEC", "def f(x, y):\n    return x + y\n", 3, "Z")


_SWAPPED = r"""
import opcode, sys
import pyadapt
from pyadapt._compiler import OPS
from pyadapt._pyadapt import lib

def swap_first_two(code, first, second):
    # the units of `first` and `second` (adjacent, in that order) swapped: 3.13's order
    b = bytearray(code.co_code)
    for i in range(0, len(b) - 2, 2):
        if b[i] == opcode.opmap[first] and b[i + 2] == opcode.opmap[second]:
            b[i:i + 4] = b[i + 2:i + 4] + b[i:i + 2]
            return code.replace(co_code=bytes(b))
    raise AssertionError("no %s %s pair" % (first, second))

def g(*args, **kw):
    return args, kw

# 3.13's PUSH_NULL follows the callable: its row puts the NULL under it, for pyadapt's CALL
lib.pa_decoder[opcode.opmap["PUSH_NULL"]].pa_op = OPS["PUSH_NULL_UNDER"].code
pyadapt.configure(specialize=True, warmup=0)

def plain(g, a):
    return g(a, 2)
def star(g, a):
    return g(*a)
def starstar(g, a):
    return g(*a, **{"k": 1})
for f, want in ((plain, ((5, 2), {})), (star, ((5, 6), {})), (starstar, ((5, 6), {"k": 1}))):
    code = swap_first_two(f.__code__, "PUSH_NULL", "LOAD_FAST")
    swapped = type(f)(code, globals())
    assert pyadapt._pyadapt.generic_code(code)      # pyadapt compiles it: it never runs natively
    for _ in range(3):
        got = pyadapt.run(swapped, g, 5 if f is plain else (5, 6))
        assert got == want, (f.__name__, got)
    print(f.__name__, "ok")
# the plain call specialized (CALL's adaptive family: 3.13's CALL is pyadapt's own)
print(pyadapt.stats()["specialized"]["CALL_PY_VARARGS"]["hits"] >= 2)
"""


def test_push_null_under_gives_313s_calls_pyadapts_layout():
    proc = subprocess.run([sys.executable, "-c", _SWAPPED], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.split() == ["plain", "ok", "star", "ok", "starstar", "ok", "True"]
