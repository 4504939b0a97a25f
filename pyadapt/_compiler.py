"""The compiler: CPython 3.11 code objects -> pyadapt units.

A unit (``pa_unit`` in csrc/pa_cdef.h) holds pyadapt's code -- 32-bit instruction words
(opcode in the low 8 bits, oparg in the high 24), each followed by its family's inline
cache -- and the maps back to CPython: ``to_cpy`` gives the CPython offset of every
instruction (the loop writes it to ``frame->prev_instr``, so line numbers, tracebacks and
``f_lasti`` are CPython's), ``from_cpy`` gives the pyadapt index for every CPython offset
(to resume a generator or a caller), and the exception table is translated to pyadapt
indices.

What the compiler changes relative to CPython's bytecode: CACHE entries and EXTENDED_ARG
disappear (pyadapt's caches are its own, opargs have 24 bits), PRECALL+CALL become one
CALL, the forward/backward jump variants become one instruction each with an absolute
target.  Everything it knows about instructions it reads from the C core's metadata table
(``pa_opinfo_table``, generated from csrc/pa_opcodes.h).
"""
# The compiler runs while the program runs -- also while the program has replaced
# builtins.len or its friends.  Everything it calls is bound here, at import.
from builtins import (BaseException, Exception, MemoryError, TypeError, int, isinstance,
                      len, list, range, sorted, str, type)

import opcode as _cpy_opcode
import types
from array import array
from collections import namedtuple

from ._pyadapt import ffi, lib

__all__ = ["OPS", "OPNAMES", "compile_code", "compile_for_hook", "CompileError"]

OpInfo = namedtuple("OpInfo", "code name ncache flags cache_type")


def _load_opinfo():
    ops = {}
    for i in range(lib.pa_num_opcodes):
        info = lib.pa_opinfo_table[i]
        name = ffi.string(info.name).decode()
        cache_type = ffi.string(info.cache_type).decode() if info.cache_type else None
        ops[name] = OpInfo(i, name, info.ncache, info.flags, cache_type)
    return ops


OPS = _load_opinfo()
OPNAMES = {info.code: name for name, info in OPS.items()}
F_JUMP = lib.PA_F_JUMP
MAX_OPARG = (1 << 24) - 1


class CompileError(Exception):
    """The code object uses something the compiler cannot translate."""


# ---- the CPython 3.11 decoder (the version seam of the compiler) ----

_CPY = _cpy_opcode.opmap
_CACHES = _cpy_opcode._inline_cache_entries
_EXTENDED_ARG = _CPY["EXTENDED_ARG"]
_CACHE = _CPY["CACHE"]
_BACKWARD = {_CPY[n] for n in ("JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT",
                               "POP_JUMP_BACKWARD_IF_FALSE", "POP_JUMP_BACKWARD_IF_TRUE",
                               "POP_JUMP_BACKWARD_IF_NONE", "POP_JUMP_BACKWARD_IF_NOT_NONE")}
_RELATIVE = set(_cpy_opcode.hasjrel)

# CPython instruction -> pyadapt instruction, where the names differ.
_RENAME = {
    "JUMP_FORWARD": "JUMP",
    "JUMP_BACKWARD": "JUMP",
    "JUMP_BACKWARD_NO_INTERRUPT": "JUMP_NO_INTERRUPT",
    "POP_JUMP_FORWARD_IF_FALSE": "POP_JUMP_IF_FALSE",
    "POP_JUMP_BACKWARD_IF_FALSE": "POP_JUMP_IF_FALSE",
    "POP_JUMP_FORWARD_IF_TRUE": "POP_JUMP_IF_TRUE",
    "POP_JUMP_BACKWARD_IF_TRUE": "POP_JUMP_IF_TRUE",
    "POP_JUMP_FORWARD_IF_NONE": "POP_JUMP_IF_NONE",
    "POP_JUMP_BACKWARD_IF_NONE": "POP_JUMP_IF_NONE",
    "POP_JUMP_FORWARD_IF_NOT_NONE": "POP_JUMP_IF_NOT_NONE",
    "POP_JUMP_BACKWARD_IF_NOT_NONE": "POP_JUMP_IF_NOT_NONE",
}
# CPython instructions with no pyadapt counterpart: their work is done by the next one.
_DROPPED = {"PRECALL"}

CpyInstr = namedtuple("CpyInstr", "start offset opname arg end jump_target")


def decode(code):
    """CPython 3.11 instructions of `code`, with offsets in code units.

    ``start`` is where the instruction begins (its first EXTENDED_ARG), ``offset`` where
    its opcode is (what ``f_lasti`` shows), ``end`` the offset after its caches, and
    ``jump_target`` the absolute target offset of a relative jump (else None).
    """
    raw = code.co_code
    n = len(raw) // 2
    i = 0
    ext = 0
    start = None
    while i < n:
        op = raw[2 * i]
        arg = raw[2 * i + 1] | ext
        if start is None:
            start = i
        if op == _EXTENDED_ARG:
            ext = arg << 8
            i += 1
            continue
        if op == _CACHE:
            raise CompileError(f"stray CACHE entry at offset {2 * i}")
        end = i + 1 + _CACHES[op]
        target = None
        if op in _RELATIVE:
            target = end - arg if op in _BACKWARD else end + arg
        yield CpyInstr(start, i, _cpy_opcode.opname[op], arg, end, target)
        ext = 0
        start = None
        i = end


def _exception_table(code):
    """(start, end, target, depth, lasti) in code units, from CPython 3.11's varint table.

    Entries are start, length, target, depth<<1|lasti; each number is 6-bit chunks,
    most significant first, bit 6 set on all but the last, bit 7 set on an entry's first.
    """
    table = code.co_exceptiontable
    n = len(table)
    pos = 0
    out = []
    while pos < n:
        fields = []
        for _ in range(4):
            value = table[pos] & 63
            while table[pos] & 64:
                pos += 1
                value = (value << 6) | (table[pos] & 63)
            pos += 1
            fields.append(value)
        start, length, target, depth_lasti = fields
        out.append((start, start + length, target, depth_lasti >> 1, depth_lasti & 1))
    return out


# ---- pyadapt code generation ----

def compile_code(code):
    """Translate `code` into a new C-owned unit; returns the unit (cffi pointer)."""
    if not isinstance(code, types.CodeType):
        raise TypeError(f"expected a code object, not {type(code).__name__}")
    instrs = list(decode(code))
    ncpy = len(code.co_code) // 2

    # Pass 1: where each CPython instruction lands in pyadapt's code.
    plan = []
    from_cpy = array("I", [0]) * (ncpy + 1)
    pos = 0
    for ins in instrs:
        if ins.opname in _DROPPED:
            name = None
        else:
            name = _RENAME.get(ins.opname, ins.opname)
            if name not in OPS:
                raise CompileError(f"no pyadapt instruction for {ins.opname}")
        for off in range(ins.start, ins.end):
            from_cpy[off] = pos
        plan.append((ins, name, pos))
        if name is not None:
            pos += 1 + OPS[name].ncache
    ncode = pos
    from_cpy[ncpy] = ncode

    # Pass 2: instruction words, with jump targets made absolute pyadapt indices.
    words = array("I", [0]) * ncode
    to_cpy = array("I", [0]) * ncode
    for ins, name, at in plan:
        if name is None:
            continue
        info = OPS[name]
        arg = ins.arg
        if info.flags & F_JUMP:
            if ins.jump_target is None or not 0 <= ins.jump_target <= ncpy:
                raise CompileError(f"{ins.opname} at {2 * ins.offset}: bad jump target")
            arg = from_cpy[ins.jump_target]
        if arg > MAX_OPARG:
            raise CompileError(f"{ins.opname} at {2 * ins.offset}: oparg {arg} too large")
        words[at] = info.code | (arg << 8)
        for k in range(1 + info.ncache):
            to_cpy[at + k] = ins.offset

    exc = []
    for start, end, target, depth, lasti in _exception_table(code):
        pa_start, pa_end = from_cpy[start], from_cpy[end]
        if pa_start < pa_end:
            exc.append((pa_start, pa_end, from_cpy[target], depth, int(lasti)))
    exc.sort()

    unit = lib.pa_unit_new(ncode, ncpy, len(exc))
    if unit == ffi.NULL:
        raise MemoryError("pa_unit_new")
    if ncode:
        ffi.memmove(unit.code, words, ncode * 4)
        ffi.memmove(unit.to_cpy, to_cpy, ncode * 4)
    ffi.memmove(unit.from_cpy, from_cpy, (ncpy + 1) * 4)
    for i, (start, end, target, depth, lasti) in enumerate(exc):
        e = unit.exc[i]
        e.start, e.end, e.handler, e.depth, e.lasti = start, end, target, depth, lasti
    if lib.pa_unit_finish(unit) != 0:      # keeps the generic code, quickens per pa_config
        lib.pa_unit_free(unit)
        raise MemoryError("pa_unit_finish")
    return unit


rejections = {}   # code object name/location -> why the compiler refused it


def compile_for_hook(code):
    """Called by the C hook on a code object's first entry: the unit's address, or 0.

    Never raises: a code object the compiler cannot translate (or a bug in it) is recorded
    in `rejections`, and the hook runs that code in CPython's loop.
    """
    try:
        unit = compile_code(code)
    except BaseException as exc:     # noqa: BLE001 - the program must not see compiler errors
        try:
            rejections[(code.co_filename, code.co_firstlineno, code.co_qualname)] = (
                "%s: %s" % (type(exc).__name__, exc))
        except BaseException:        # noqa: BLE001
            pass
        return 0
    return int(ffi.cast("uintptr_t", unit))
