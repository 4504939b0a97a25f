"""The one definition of pyadapt's instruction set (csrc/pa_opcodes.h), checked row by row.

Each row says what its oparg is and what it takes from and puts back on the stack.  Nothing
at run time checks a row (the frame size comes from co_stacksize), so these tests do: every
generic row against CPython 3.11's own ``dis.stack_effect`` for the instructions that lower
to it, every superinstruction against its two halves, and every row's oparg kind against
what CPython's ``opcode`` module says about the same instructions.  A wrong row fails here.
"""
import dis
import opcode
import sys

import pytest

from pyadapt import _word
from pyadapt._compiler import _DECODER, ARG_NAMES, OPNAMES, OPS, decoder_entries
from pyadapt._pyadapt import lib

pytestmark = pytest.mark.skipif(sys.version_info[:2] != (3, 11),
                                reason="compares with CPython 3.11's opcode and dis modules")

GENERIC = [info for info in OPS.values() if info.family == info.name and not
           info.flags & lib.PA_F_SUPER]
SUPERS = [info for info in OPS.values() if info.flags & lib.PA_F_SUPER]
FORMS = [info for info in OPS.values() if info.family != info.name]

# CPython instructions the compiler drops: their work is the next instruction's, so their
# stack effect is too (3.11's PRECALL + CALL is pyadapt's CALL).
DROPPED_INTO = _DECODER.DROPPED


def _lowered():
    """pyadapt generic instruction name -> the CPython opcodes that lower to it."""
    out = {}
    for op, kind, pa_op, _ncache, _jump, alt_op, _shift, _extra, _limit in decoder_entries():
        # CPython's specialized forms decode as their family (read in quickened code only):
        # dis.stack_effect knows the generic opcodes alone
        if kind == lib.PA_DK_OP and op in opcode.opmap.values():
            out.setdefault(OPNAMES[pa_op], []).append(op)
            if alt_op:
                out.setdefault(OPNAMES[alt_op], []).append(op)
    return out


LOWERED = _lowered()

# Rows for other CPython versions' bytecode: semantics 3.11 has no instruction for (3.12's,
# then 3.13's, whose stack effects tests/test_decode313.py checks against 3.13's dis).
OTHER_VERSIONS_ROWS = {
    "RETURN_CONST", "BINARY_SLICE", "STORE_SLICE", "LOAD_FAST_AND_CLEAR", "END_FOR", "END_SEND",
    "CLEANUP_THROW", "CALL_INTRINSIC_1", "CALL_INTRINSIC_2", "LOAD_SUPER_ATTR",
    "LOAD_SUPER_METHOD", "LOAD_LOCALS", "LOAD_FROM_DICT_OR_GLOBALS", "LOAD_FROM_DICT_OR_DEREF",
    "TO_BOOL", "CONVERT_VALUE", "FORMAT_SIMPLE", "FORMAT_WITH_SPEC", "SET_FUNCTION_ATTRIBUTE",
    "PUSH_NULL_UNDER", "LOAD_FAST_LOAD_FAST",
    "STORE_FAST_LOAD_FAST", "STORE_FAST_STORE_FAST", "CALL_KW",
}
LOWERED_HERE = [info for info in GENERIC if info.name in LOWERED]


def test_every_generic_row_lowers_from_this_version_or_belongs_to_another():
    """What no 3.11 instruction lowers to is exactly the rows kept for 3.12's bytecode."""
    assert {info.name for info in GENERIC if info.name not in LOWERED} == OTHER_VERSIONS_ROWS

# Opargs each kind is tried with (valid ones: dis.stack_effect accepts more than the
# compiler emits, e.g. BUILD_SLICE 0).
SAMPLES = {
    "count": [0, 1, 2, 3, 7, 300],
    "function_flags": list(range(16)),
    "format": list(range(8)),
    "call_ex": [0, 1],
    "global": [0, 1, 6, 7],
    "unpack_ex": [0, 1, 0x100, 0x203, 0x1010],
    "depth": [1, 2, 3, 5],
}


def _samples(info):
    if info.name == "BUILD_SLICE":
        return [2, 3]
    return SAMPLES.get(info.arg, [0, 1, 2])


def test_every_row_has_a_known_kind_and_stack_text():
    for info in OPS.values():
        assert info.arg in ARG_NAMES, info
        assert info.pop and info.push, info


@pytest.mark.parametrize("info", LOWERED_HERE, ids=lambda i: i.name)
def test_generic_row_matches_cpython_stack_effect(info):
    cpy_ops = LOWERED[info.name]
    dropped = [opcode.opmap[d] for d, into in DROPPED_INTO.items() if into == info.name]
    for op in cpy_ops:
        for arg in (_samples(info) if op >= opcode.HAVE_ARGUMENT else [0]):
            for jump in (False, True):
                if op >= opcode.HAVE_ARGUMENT:
                    want = dis.stack_effect(op, arg, jump=jump)
                else:
                    want = dis.stack_effect(op)
                want += sum(dis.stack_effect(d, arg, jump=jump) for d in dropped)
                got = info.stack_effect(arg, jump)
                assert got == want, (
                    "%s (pop %s, push %s) with oparg %d, jump=%s: %d, CPython's %s: %d"
                    % (info.name, info.pop, info.push, arg, jump, got, opcode.opname[op], want))


@pytest.mark.parametrize("info", LOWERED_HERE, ids=lambda i: i.name)
def test_generic_row_oparg_kind_matches_cpython(info):
    """An instruction has an oparg exactly when CPython's does; the kinds that index a
    table of the code object or jump are CPython's has* lists."""
    cpy_ops = LOWERED[info.name]
    for op in cpy_ops:
        assert (info.arg != "none") == (op >= opcode.HAVE_ARGUMENT), (info.name, info.arg)
        assert (info.arg == "jump") == (op in opcode.hasjrel or op in opcode.hasjabs)
        assert (info.arg == "const") == (op in opcode.hasconst)
        assert (info.arg in ("name", "global")) == (op in opcode.hasname)
        assert (info.arg == "local") == (op in opcode.haslocal or op in opcode.hasfree)
        assert (info.arg == "compare") == (op in opcode.hascompare)


@pytest.mark.parametrize("info", SUPERS, ids=lambda i: i.name)
def test_superinstruction_is_its_two_halves(info):
    first, second = (OPS[half] for half in info.name.split("__"))
    assert info.arg == first.arg
    for arg in (0, 1):
        assert info.stack_effect(arg) == first.stack_effect(arg) + second.stack_effect(arg)


@pytest.mark.parametrize("info", FORMS, ids=lambda i: i.name)
def test_specialized_form_is_its_family(info):
    family = OPS[info.family]
    assert (info.arg, info.pop, info.push) == (family.arg, family.pop, family.push)
    for arg in _samples(family):
        for jump in (False, True):
            assert info.stack_effect(arg, jump) == family.stack_effect(arg, jump)


def test_word_and_counter_round_trip():
    for op in (0, 1, len(OPS) - 1):
        for arg in (0, 1, 0x1234, _word.MAX_OPARG):
            w = _word.word(op, arg)
            assert w < 1 << 32
            assert (_word.opcode(w), _word.oparg(w)) == (op, arg)
    c = _word.counter(kind=7, backoff=3, value=_word.MAX_WARMUP)
    assert (_word.failure_kind(c), _word.backoff(c), _word.countdown(c)) == (7, 3, _word.MAX_WARMUP)
    assert _word.MAX_WARMUP == (1 << 20) - 1
    assert (_word.COUNTER, _word.HITS) == (0, 1)
