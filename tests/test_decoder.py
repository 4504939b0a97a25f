"""The running version's decoder (pyadapt/_decode3XX.py) and what its data makes the C
compiler do, and the meaning of pyadapt's own opargs on every CPython version.

A decoder lowers its version's bytecode to pyadapt's instructions as data only (the compiler
is C and runs no Python): per opcode an instruction, and beyond that an alternative
instruction chosen by bit 0 of the oparg, an oparg shift and a jump-target adjustment (what
3.12's LOAD_ATTR, COMPARE_OP and FOR_ITER need).  These tests set those fields on a live
decoder entry and read the unit the C compiler makes, so a compiler that ignored them fails.
"""
import contextlib
import opcode
import sys

import pytest

import pyadapt
from pyadapt import _pyadapt as core, _word
from pyadapt._compiler import BINARY_OPS, COMPARE_OPS, OPNAMES, OPS, _DECODER
from pyadapt._pyadapt import lib


def test_the_running_versions_decoder_is_loaded():
    assert _DECODER.__name__ == "pyadapt._decode%d%d" % sys.version_info[:2]
    assert lib.pa_decoder_ready


def _words(code):
    """(pyadapt opcode name, oparg) of each instruction of `code`'s generic unit."""
    words = memoryview(core.generic_code(code)).cast("I")
    out, i = [], 0
    while i < len(words):
        name = OPNAMES[_word.opcode(words[i])]
        out.append((name, _word.oparg(words[i])))
        i += 1 + OPS[name].ncache
    return out


@contextlib.contextmanager
def _entry(cpy_name, **fields):
    """The decoder entry of CPython opcode `cpy_name` with `fields` changed, restored after."""
    entry = lib.pa_decoder[opcode.opmap[cpy_name]]
    saved = {k: getattr(entry, k) for k in fields}
    try:
        for k, v in fields.items():
            setattr(entry, k, v)
        yield
    finally:
        for k, v in saved.items():
            setattr(entry, k, v)


def _fresh(src, name="f"):
    ns = {}
    exec(compile(src, "<decoder test>", "exec"), ns)
    return ns[name].__code__


def _first(words, family):
    return next(arg for name, arg in words if name == family)


def test_alt_op_is_chosen_by_bit_0_of_the_oparg():
    # STORE_FAST's oparg is a local's index: x is local 0, y local 1
    code = _fresh("def f():\n    x = 1\n    y = 2\n    return x, y\n")
    plain = [(n, a) for n, a in _words(code) if n in ("STORE_FAST", "DELETE_FAST")]
    assert plain == [("STORE_FAST", 0), ("STORE_FAST", 1)]
    with _entry("STORE_FAST", alt_op=OPS["DELETE_FAST"].code):
        got = [(n, a) for n, a in _words(code) if n in ("STORE_FAST", "DELETE_FAST")]
    assert got == [("STORE_FAST", 0), ("DELETE_FAST", 1)]


def test_arg_shift_applies_after_the_alt_op_bit():
    code = _fresh("def f(a, b, c, d):\n    return d\n")
    assert _first(_words(code), "LOAD_FAST") == 3
    with _entry("LOAD_FAST", arg_shift=1):
        assert _first(_words(code), "LOAD_FAST") == 1
    with _entry("LOAD_FAST", arg_shift=1, alt_op=OPS["LOAD_CONST"].code):
        assert _first(_words(code), "LOAD_CONST") == 1


def test_jump_extra_moves_the_target():
    code = _fresh("def f(xs):\n    for x in xs:\n        pass\n    return 1\n")
    words = _words(code)
    target = _first(words, "FOR_ITER")
    # one unit more than the version's own (3.12's FOR_ITER already skips its END_FOR)
    extra = lib.pa_decoder[opcode.opmap["FOR_ITER"]].jump_extra
    with _entry("FOR_ITER", jump_extra=extra + 1):
        moved = _first(_words(code), "FOR_ITER")
    # one CPython code unit further: the instruction after the one it named
    assert moved > target


@pytest.mark.parametrize("op", BINARY_OPS)
def test_binary_op_oparg_means_what_pyadapts_table_says(op):
    src = ("def f(a, b):\n    a %s b\n    return a\n" % op if op.endswith("=") and op != "=="
           else "def f(a, b):\n    return a %s b\n" % op)
    code = _fresh(src)
    ins = [i for i in pyadapt.get_instructions(code, adaptive=False) if i.family == "BINARY_OP"]
    assert [i.argrepr for i in ins] == [op]


@pytest.mark.parametrize("op", COMPARE_OPS)
def test_compare_oparg_means_what_pyadapts_table_says(op):
    code = _fresh("def f(a, b):\n    return a %s b\n" % op)
    ins = [i for i in pyadapt.get_instructions(code, adaptive=False) if i.family == "COMPARE_OP"]
    assert [i.argrepr for i in ins] == [op]
    f = type(lambda: 0)(code, {})
    for a, b in ((1, 2), (2, 2), (3, 2)):
        assert pyadapt.run(f, a, b) == f(a, b)


_QUICKENED_SRC = """
class P:
    __slots__ = ("x",)
    def __init__(self, x):
        self.x = x
def f(p, d, seq, n):
    total = 0
    for i in range(n):
        a, b = seq
        total += p.x + d["k"] + a * b + len(seq)
        if i < n:
            total -= 1
    return total - 1.5 * 2.0
"""


def test_code_quickened_by_cpython_compiles_to_the_same_unit():
    """3.11's compiler reads a code object's quickened code (no de-quickened copy kept):
    after CPython's own loop has specialized a function, its unit is the same as that of a
    fresh, never-run copy of the code."""
    ns = {}
    exec(compile(_QUICKENED_SRC, "<quickened>", "exec"), ns)
    f, p = ns["f"], ns["P"](3)
    fresh = f.__code__.replace()
    for _ in range(200):          # natively: CPython quickens and specializes f
        f(p, {"k": 1}, (2, 3), 20)
    if sys.version_info[:2] == (3, 11):
        import dis
        names = {i.opname for i in dis.get_instructions(f, adaptive=True)}
        assert names - {i.opname for i in dis.get_instructions(fresh)}, "CPython did not specialize"
    assert _words(f.__code__) == _words(fresh)
    assert pyadapt.run(f, p, {"k": 1}, (2, 3), 20) == f(p, {"k": 1}, (2, 3), 20)
