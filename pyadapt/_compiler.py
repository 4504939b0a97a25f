"""The compiler's Python half: the instruction metadata, and the decoder of the running
CPython version.

The compiler itself is C (csrc/pa_compile.c): it runs when a code object is first entered,
and it must run no Python code there (a signal handler, an audit hook or a profiler would
see it, and an exception raised in it could be lost).  What it needs to know about this
CPython's bytecode is data, built once at import by the running version's decoder
(``pyadapt/_decode3XX.py``, from the interpreter's own ``opcode`` module) and written into
the C core's ``pa_decoder`` table: for each CPython opcode, the pyadapt instruction it
lowers to (or that it is dropped, an EXTENDED_ARG prefix, a CACHE entry, or unknown), its
inline cache entries, the direction of its relative jump, and what happens to its oparg.

A unit (``pa_unit`` in csrc/pa_cdef.h) holds pyadapt's code -- 32-bit instruction words
(opcode in the low 8 bits, oparg in the high 24), each followed by its family's inline
cache -- and the maps back to CPython offsets (``to_cpy``, ``from_cpy``), and the
exception table in pyadapt indices.  Everything the Python layer knows about pyadapt's
instructions it reads from the C core's metadata table (``pa_opinfo_table``, generated
from csrc/pa_opcodes.h).
"""
import importlib
import sys
import types

from ._pyadapt import ffi, lib

__all__ = ["OPS", "OPNAMES", "COMPARE_OPS", "BINARY_OPS", "INTRINSIC_1_NAMES",
           "INTRINSIC_2_NAMES", "compile_code", "CompileError"]

ARG_NAMES = [ffi.string(lib.pa_arg_names[k]).decode() for k in range(lib.PA_NUM_ARG_KINDS)]


# What the opargs of the "compare" and "binary_op" kinds mean in pyadapt's instruction set,
# whatever the running CPython's encoding (a decoder lowers its version's opargs to these):
# the rich comparison (Py_LT ... Py_GE) and the NB_* operator of csrc/pa_eval.c's tables.
COMPARE_OPS = ("<", "<=", "==", "!=", ">", ">=")
BINARY_OPS = ("+", "&", "//", "<<", "@", "*", "%", "|", "**", ">>", "-", "/", "^",
              "+=", "&=", "//=", "<<=", "@=", "*=", "%=", "|=", "**=", ">>=", "-=", "/=", "^=")
# ... and of the "intrinsic_1" and "intrinsic_2" kinds (PA_INTRINSIC1_*, PA_INTRINSIC2_*)
INTRINSIC_1_NAMES = (None, "INTRINSIC_PRINT", "INTRINSIC_IMPORT_STAR",
                     "INTRINSIC_STOPITERATION_ERROR", "INTRINSIC_ASYNC_GEN_WRAP",
                     "INTRINSIC_UNARY_POSITIVE", "INTRINSIC_LIST_TO_TUPLE")
INTRINSIC_2_NAMES = (None, "INTRINSIC_PREP_RERAISE_STAR")


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


# ---- the decoder of the running CPython version (the version seam of the compiler) ----

# (op, kind, pa_op, ncache, jump, alt_op, arg_shift, jump_extra, arg_limit): pa_decode_entry's
# fields
_DECODER = importlib.import_module("pyadapt._decode%d%d" % sys.version_info[:2])


def decoder_entries():
    """The rows of the C compiler's pa_decoder table for every opcode of this CPython, as
    the running version's decoder (``pyadapt/_decode3XX.py``) gives them: (CPython opcode,
    kind, pyadapt opcode, cache entries, jump direction, pyadapt opcode when the oparg's
    bit 0 is set, oparg shift, jump target adjustment, oparg limit)."""
    return _DECODER.entries(OPS, lib)


def _load_decoder():
    for (op, kind, pa_op, ncache, jump, alt_op, arg_shift, jump_extra,
         arg_limit) in decoder_entries():
        entry = lib.pa_decoder[op]
        entry.kind, entry.pa_op, entry.ncache, entry.jump = kind, pa_op, ncache, jump
        entry.alt_op, entry.arg_shift, entry.jump_extra = alt_op, arg_shift, jump_extra
        entry.arg_limit = arg_limit
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
