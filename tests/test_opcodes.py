"""The one definition of pyadapt's instruction set (csrc/pa_opcodes.h), checked row by row.

Each row says what its oparg is and what it takes from and puts back on the stack.  Nothing
at run time checks a row (the frame size comes from co_stacksize), so these tests do: every
generic row against the running CPython's own ``dis.stack_effect`` for the instructions that
lower to it, every superinstruction against its two halves, and every row's oparg kind
against what CPython's ``opcode`` module says about the same instructions.  Where the
version's decoder rewrites an instruction (another row for bit 0 of the oparg, a shifted
oparg, a jump past the instructions at its target) the comparison makes the same rewriting
from the decoder's own data, so a wrong decoder entry fails here as a wrong row does; the
few differences that data does not say are listed per version, each with why.  A wrong row
fails here.
"""
import dis
import functools
import opcode
import sys
import types

import pytest

import pyadapt
from pyadapt import _word
from pyadapt._compiler import _DECODER, ARG_NAMES, OPNAMES, OPS, decoder_entries
from pyadapt._pyadapt import lib

VERSION = sys.version_info[:2]

GENERIC = [info for info in OPS.values() if info.family == info.name and not
           info.flags & lib.PA_F_SUPER]
SUPERS = [info for info in OPS.values() if info.flags & lib.PA_F_SUPER]
FORMS = [info for info in OPS.values() if info.family != info.name]

# CPython instructions the compiler drops: their work is the next instruction's, so their
# stack effect is too (3.11's PRECALL + CALL is pyadapt's CALL).
DROPPED_INTO = _DECODER.DROPPED

# The CPython opcodes that take an oparg.  3.12 lists them (``hasarg``); 3.13 numbers some
# without one from HAVE_ARGUMENT on (WITH_EXCEPT_START is 44, HAVE_ARGUMENT too).
HASARG = set(getattr(opcode, "hasarg", range(opcode.HAVE_ARGUMENT, 256)))


def _lowered():
    """pyadapt generic instruction name -> the decoder entries (``decoder_entries``) of the
    CPython opcodes that lower to it."""
    out = {}
    for entry in decoder_entries():
        op, kind, pa_op, alt_op = entry[0], entry[1], entry[2], entry[5]
        # CPython's specialized forms decode as their family (read in quickened code only):
        # dis.stack_effect knows the generic opcodes alone
        if kind == lib.PA_DK_OP and op in opcode.opmap.values():
            out.setdefault(OPNAMES[pa_op], []).append(entry)
            if alt_op:
                out.setdefault(OPNAMES[alt_op], []).append(entry)
    return out


LOWERED = _lowered()

# The rows that some supported version's bytecode has no instruction for, and the versions
# whose decoders lower one to them (every other generic row: all of them).  Each version
# checks its own part below, so the three runs check the whole table.
ROW_VERSIONS = {
    # 3.11's instructions that 3.12 removed: the unary plus, print, import-star, wrap and
    # to-tuple became CALL_INTRINSIC_1's opargs, PREP_RERAISE_STAR CALL_INTRINSIC_2's,
    # LOAD_CLASSDEREF LOAD_FROM_DICT_OR_DEREF's work
    **dict.fromkeys(["UNARY_POSITIVE", "PRINT_EXPR", "IMPORT_STAR", "ASYNC_GEN_WRAP",
                     "LIST_TO_TUPLE", "PREP_RERAISE_STAR", "LOAD_CLASSDEREF",
                     "JUMP_IF_FALSE_OR_POP", "JUMP_IF_TRUE_OR_POP"], {(3, 11)}),
    # 3.12's new instructions, kept by 3.13 (LOAD_SUPER_METHOD is LOAD_SUPER_ATTR's bit 0)
    **dict.fromkeys(["RETURN_CONST", "BINARY_SLICE", "STORE_SLICE", "LOAD_FAST_AND_CLEAR",
                     "END_SEND", "CLEANUP_THROW", "CALL_INTRINSIC_1", "CALL_INTRINSIC_2",
                     "LOAD_SUPER_ATTR", "LOAD_SUPER_METHOD", "LOAD_LOCALS",
                     "LOAD_FROM_DICT_OR_GLOBALS", "LOAD_FROM_DICT_OR_DEREF"],
                    {(3, 12), (3, 13)}),
    # 3.12's END_FOR pops two items; 3.13's pops one, and lowers to POP_TOP
    "END_FOR": {(3, 12)},
    # gone in 3.13: FORMAT_VALUE (now CONVERT_VALUE and the FORMAT_*), KW_NAMES (made by
    # pyadapt's compiler from LOAD_CONST + CALL_KW, not decoded), LOAD_CLOSURE (a
    # pseudo-instruction, assembled as LOAD_FAST), PUSH_NULL (3.13's comes after the
    # callable: PUSH_NULL_UNDER)
    **dict.fromkeys(["FORMAT_VALUE", "KW_NAMES", "LOAD_CLOSURE", "PUSH_NULL"],
                    {(3, 11), (3, 12)}),
    # 3.13's new instructions
    **dict.fromkeys(["TO_BOOL", "CONVERT_VALUE", "FORMAT_SIMPLE", "FORMAT_WITH_SPEC",
                     "SET_FUNCTION_ATTRIBUTE", "PUSH_NULL_UNDER", "LOAD_FAST_LOAD_FAST",
                     "STORE_FAST_LOAD_FAST", "STORE_FAST_STORE_FAST", "CALL_KW"], {(3, 13)}),
}
OTHER_VERSIONS_ROWS = {name for name, versions in ROW_VERSIONS.items()
                       if VERSION not in versions}
LOWERED_HERE = [info for info in GENERIC if info.name in LOWERED]

# Where this version's instruction and pyadapt's row differ in a way the decoder's data does
# not say (checked against each version's own dis and opcode modules; an entry that no
# longer differs fails the test that reads it).
# CPython name -> (CPython's stack effect minus the row's, why):
EFFECT_DIFFERS = {
    (3, 13): {
        "RETURN_GENERATOR": (1, "3.13 counts the value the generator's first send pushes, "
                                "which the POP_TOP after it pops; 3.11, 3.12 and pyadapt's "
                                "row count it nowhere"),
    },
}.get(VERSION, {})
# CPython name -> why its instruction has an oparg and pyadapt's row none, or the reverse:
ARG_DIFFERS = {
    (3, 12): {
        "YIELD_VALUE": "the exception-block depth at the yield (1 outside any try), there "
                       "for CPython's gen.close(), which looks at CPython's own bytecode; "
                       "pyadapt's instruction has no use for it",
    },
    (3, 13): {
        "YIELD_VALUE": "1 in a yield from or an await: pyadapt's instruction reads it (the "
                       "generator's suspended state) though its row, 3.11's, says none",
        "MAKE_FUNCTION": "takes the code only (SET_FUNCTION_ATTRIBUTE gives the function its "
                         "parts), so pyadapt's row always reads oparg 0: no parts to pop",
    },
}.get(VERSION, {})


def test_every_generic_row_lowers_from_this_version_or_belongs_to_another():
    """What no instruction of this version lowers to is exactly the rows kept for the other
    versions' bytecode."""
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


def _cpy_effect(op, arg, jump=False):
    """CPython's dis.stack_effect, given an oparg only where the opcode takes one."""
    return dis.stack_effect(op, arg, jump=jump) if op in HASARG else dis.stack_effect(op)


def _cpy_opargs(info, entry):
    """CPython opargs to try for an instruction lowering to `info`: the row's sample opargs
    shifted back by the decoder's shift, with the bits under it clear and set (bit 0 picks
    the alternative row where there is one)."""
    op, shift = entry[0], entry[6]
    if op not in HASARG:
        return [0]
    return [arg << shift | low for arg in _samples(info) for low in {0, (1 << shift) - 1}]


def _lowered_form(entry, cpy_arg):
    """The pyadapt opcode and oparg the C compiler makes of CPython's oparg (as
    csrc/pa_compile.c does: bit 0 picks alt_op, then the oparg is shifted)."""
    pa_op, alt_op, shift = entry[2], entry[5], entry[6]
    return (alt_op if alt_op and cpy_arg & 1 else pa_op), cpy_arg >> shift


# Code with every instruction a decoder gives a jump_extra (3.12+: FOR_ITER, SEND): what its
# jump skips is what CPython's compiler put at the target, read from here, not restated.
_JUMPS_SOURCE = """
def loop(xs):
    for x in xs:
        pass

def delegate(xs):
    yield from xs
"""


@functools.cache
def _skipped_by_jump():
    """CPython opcode with a jump_extra -> the (opcode, oparg) of the instructions in the
    code units between its jump target and where the decoder makes it land."""
    extra = {entry[0]: entry[7] for entry in decoder_entries()
             if entry[7] and entry[0] in opcode.opmap.values()}    # not specialized forms
    out = {}
    top = compile(_JUMPS_SOURCE, "<jumps>", "exec")
    for code in [c for c in top.co_consts if isinstance(c, types.CodeType)]:
        instrs = list(dis.get_instructions(code))
        for instr in instrs:
            if instr.opcode in extra:
                target, land = instr.argval, instr.argval + 2 * extra[instr.opcode]
                assert land in {i.offset for i in instrs}, (instr, "lands inside an instruction")
                out[instr.opcode] = [(i.opcode, i.arg) for i in instrs
                                     if target <= i.offset < land]
    assert set(out) == set(extra), "_JUMPS_SOURCE lacks %s" % [
        opcode.opname[op] for op in set(extra) - set(out)]
    return out


@pytest.mark.parametrize("info", LOWERED_HERE, ids=lambda i: i.name)
def test_generic_row_matches_cpython_stack_effect(info):
    """The row's stack effect, at the oparg the compiler gives it, is CPython's at the oparg
    it was made from, with what the decoder folds in: a dropped instruction's effect, and on
    a jump taken past `extra` units the effect of the instructions there (3.12's exhausted
    FOR_ITER lands past its END_FOR, and does that END_FOR's pops itself)."""
    dropped = [opcode.opmap[d] for d, into in DROPPED_INTO.items() if into == info.name]
    for entry in LOWERED[info.name]:
        op, extra, limit = entry[0], entry[7], entry[8]
        name = opcode.opname[op]
        differs = EFFECT_DIFFERS.get(name, (0, ""))[0]
        checked = 0
        for cpy_arg in _cpy_opargs(info, entry):
            pa_op, arg = _lowered_form(entry, cpy_arg)
            if pa_op != info.code or (limit and arg >= limit):
                continue        # another row's oparg, or one the compiler rejects
            checked += 1
            for jump in (False, True):
                want = _cpy_effect(op, cpy_arg, jump)
                want += sum(_cpy_effect(d, cpy_arg, jump) for d in dropped)
                if jump and extra:
                    want += sum(_cpy_effect(o, a) for o, a in _skipped_by_jump()[op])
                got = info.stack_effect(arg, jump) + differs
                assert got == want, (
                    "%s (pop %s, push %s) with oparg %d, jump=%s: %d, CPython's %s with "
                    "oparg %d: %d" % (info.name, info.pop, info.push, arg, jump, got - differs,
                                      name, cpy_arg, want - differs))
        assert checked, (info.name, name, "no sample oparg lowers to the row")


@pytest.mark.parametrize("info", LOWERED_HERE, ids=lambda i: i.name)
def test_generic_row_oparg_kind_matches_cpython(info):
    """An instruction has an oparg exactly when CPython's does (but where ARG_DIFFERS says
    why not); the kinds that index a table of the code object or jump are CPython's has*
    lists."""
    for entry in LOWERED[info.name]:
        op = entry[0]
        name = opcode.opname[op]
        takes_arg = info.arg != "none"
        if name in ARG_DIFFERS:
            assert takes_arg != (op in HASARG), (name, "no longer differs: drop it from "
                                                       "ARG_DIFFERS")
        else:
            assert takes_arg == (op in HASARG), (info.name, info.arg, name)
        assert (info.arg == "jump") == (op in opcode.hasjrel or op in opcode.hasjabs)
        assert (info.arg == "const") == (op in opcode.hasconst)
        # "global" and "super" are name indexes with a flag in bit 0
        assert (info.arg in ("name", "global", "super")) == (op in opcode.hasname)
        assert (info.arg in ("local", "local_pair")) == (op in opcode.haslocal or
                                                         op in opcode.hasfree)
        assert (info.arg == "compare") == (op in opcode.hascompare)


# Code with an instruction of every oparg kind that names something of the code object or a
# comparison (the super() loads, the fused local pairs and the comparisons are the opargs
# 3.12 and 3.13 encode otherwise than pyadapt).
_MEANING_SOURCE = """
import os
G = 1
def outer(a, b):
    c = a + b
    a, b = b, a
    x = a < b
    y = a >= c
    def inner():
        return c
    return os.path.join(str(a), G, b.real, "k", 2.5, inner, x, y)
class K(dict):
    def m(self):
        return super().get(1), super(K, self).keys, super().__init__
"""
MEANING_KINDS = {"name", "global", "super", "const", "local", "local_pair", "compare"}


def test_oparg_means_what_cpythons_does():
    """A stack effect does not see an oparg's meaning (a name index shifted wrong has the same
    one), so this compares it: each instruction of pyadapt's compiled code whose oparg names
    a name, constant, local or comparison names what CPython's instruction it was made from
    names, as ``dis`` shows them."""
    top = compile(_MEANING_SOURCE, "<opargs>", "exec")
    codes, seen = [top], set()
    for code in codes:
        codes.extend(c for c in code.co_consts if isinstance(c, types.CodeType))
        cpy = {instr.offset: instr for instr in dis.get_instructions(code)}
        for instr in pyadapt.get_instructions(code, adaptive=False):
            kind = OPS[instr.family].arg
            if kind in MEANING_KINDS:
                seen.add(kind)
                made_from = cpy[instr.cpy_offset]
                assert instr.argval == made_from.argval, (
                    code.co_name, instr.opname, instr.arg, instr.argval, made_from.opname,
                    made_from.arg, made_from.argval)
    assert seen == {info.arg for info in LOWERED_HERE} & MEANING_KINDS


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
