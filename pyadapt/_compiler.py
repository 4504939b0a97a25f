"""The compiler's Python half: the instruction metadata, and the decoder of the running
CPython version.

The compiler itself is C (csrc/pa_compile.c): it runs when a code object is first entered,
and it must run no Python code there (a signal handler, an audit hook or a profiler would
see it, and an exception raised in it could be lost).  What it needs to know about this
CPython's bytecode is data, built here once at import from the interpreter's own ``opcode``
module and written into the C core's ``pa_decoder`` table: for each CPython opcode, the
pyadapt instruction it lowers to (or that it is dropped, an EXTENDED_ARG prefix, a CACHE
entry, or unknown), its inline cache entries, and the direction of its relative jump.

A unit (``pa_unit`` in csrc/pa_cdef.h) holds pyadapt's code -- 32-bit instruction words
(opcode in the low 8 bits, oparg in the high 24), each followed by its family's inline
cache -- and the maps back to CPython offsets (``to_cpy``, ``from_cpy``), and the
exception table in pyadapt indices.  Everything the Python layer knows about pyadapt's
instructions it reads from the C core's metadata table (``pa_opinfo_table``, generated
from csrc/pa_opcodes.h).
"""
import opcode as _cpy_opcode
import types

from ._pyadapt import ffi, lib

__all__ = ["OPS", "OPNAMES", "compile_code", "CompileError"]

ARG_NAMES = [ffi.string(lib.pa_arg_names[k]).decode() for k in range(lib.PA_NUM_ARG_KINDS)]


class OpInfo:
    """One pyadapt instruction's metadata: its row of csrc/pa_opcodes.h.  (A plain class:
    collections, for a namedtuple, would be the most expensive import of ``import pyadapt``.)

    arg is what the oparg is (``ARG_NAMES``: "none", "local", "const", "name", "jump", ...);
    pop and push the row's stack items as it writes them (C expressions of ``oparg`` and
    ``jump``), a specialized form's those of its family; ``stack_effect`` evaluates them."""

    __slots__ = ("code", "name", "ncache", "flags", "cache_type", "family", "arg", "pop",
                 "push")

    def __init__(self, code, name, ncache, flags, cache_type, family, arg, pop, push):
        self.code, self.name, self.ncache, self.flags, self.cache_type = (
            code, name, ncache, flags, cache_type)
        self.family, self.arg, self.pop, self.push = family, arg, pop, push

    def stack_effect(self, oparg=0, jump=False):
        return lib.pa_stack_effect(self.code, oparg, bool(jump))

    def __repr__(self):
        return ("OpInfo(code=%r, name=%r, ncache=%r, flags=%r, cache_type=%r, family=%r, "
                "arg=%r, pop=%r, push=%r)" % (
                    self.code, self.name, self.ncache, self.flags, self.cache_type,
                    self.family, self.arg, self.pop, self.push))


def _load_opinfo():
    table, stack = lib.pa_opinfo_table, lib.pa_opstack_table
    text = lambda p: ffi.string(p).decode() if p else None
    ops = {}
    for i in range(lib.pa_num_opcodes):
        info = table[i]
        ops[text(info.name)] = OpInfo(i, text(info.name), info.ncache, info.flags,
                                      text(info.cache_type), text(table[info.family].name),
                                      ARG_NAMES[info.arg], text(stack[info.family].pop),
                                      text(stack[info.family].push))
    return ops


OPS = _load_opinfo()
OPNAMES = {info.code: name for name, info in OPS.items()}


class CompileError(Exception):
    """The code object uses something the compiler cannot translate."""


# ---- the CPython 3.11 decoder (the version seam of the compiler) ----

_CPY = _cpy_opcode.opmap
_BACKWARD = {"JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT",
             "POP_JUMP_BACKWARD_IF_FALSE", "POP_JUMP_BACKWARD_IF_TRUE",
             "POP_JUMP_BACKWARD_IF_NONE", "POP_JUMP_BACKWARD_IF_NOT_NONE"}

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


def decoder_entries():
    """(CPython opcode, kind, pyadapt opcode, cache entries, jump direction) for every
    opcode of this CPython, as the C compiler's pa_decoder table holds them."""
    relative = set(_cpy_opcode.hasjrel)
    caches = _cpy_opcode._inline_cache_entries
    rows = []
    for op in range(256):
        name = _cpy_opcode.opname[op]
        ncache = caches[op]
        jump = 0
        pa_op = 0
        if op == _CPY["EXTENDED_ARG"]:
            kind = lib.PA_DK_EXTENDED_ARG
        elif op == _CPY["CACHE"]:
            kind = lib.PA_DK_CACHE
        elif name in _DROPPED:
            kind = lib.PA_DK_DROP
        elif _RENAME.get(name, name) in OPS:
            kind = lib.PA_DK_OP
            pa_op = OPS[_RENAME.get(name, name)].code
            if op in relative:
                jump = -1 if name in _BACKWARD else 1
        else:
            kind = lib.PA_DK_UNKNOWN
        rows.append((op, kind, pa_op, ncache, jump))
    return rows


def _load_decoder():
    for op, kind, pa_op, ncache, jump in decoder_entries():
        entry = lib.pa_decoder[op]
        entry.kind, entry.pa_op, entry.ncache, entry.jump = kind, pa_op, ncache, jump
    lib.pa_decoder_ready = 1


_load_decoder()


class CompileError(Exception):
    """The code object uses something the compiler cannot translate."""


def compile_code(code):
    """Translate `code` into a new C-owned unit that is not attached to it; returns the
    unit (a cffi ``pa_unit *``; free it with ``lib.pa_unit_free``).  The hook compiles
    through the same C function, without Python."""
    if not isinstance(code, types.CodeType):
        raise TypeError(f"expected a code object, not {type(code).__name__}")
    from . import _pyadapt
    try:
        addr = _pyadapt._compile_unattached(code)
    except ValueError as exc:
        raise CompileError(f"{code.co_qualname} ({code.co_filename}:{code.co_firstlineno}): "
                           f"{exc}") from None
    return ffi.cast("pa_unit *", addr)
