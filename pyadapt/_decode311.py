"""The decoder of CPython 3.11's bytecode: how each 3.11 opcode lowers to pyadapt's
instructions, as data for the C compiler's ``pa_decoder`` table (csrc/pa_cdef.h).

One such module per supported CPython version (``_decode3XX``); ``_compiler`` imports the
running version's.  It reads that interpreter's own ``opcode`` module and says, per opcode:
the pyadapt instruction it becomes (or that it is dropped, an EXTENDED_ARG prefix, a CACHE
entry, or unknown: the compiler then rejects the code object), its inline cache entries, the
direction of its relative jump, and what the C compiler does to the oparg beyond copying it
(``alt_op``: another instruction when bit 0 is set; ``arg_shift``; ``jump_extra``;
``arg_limit``).  3.11's
opargs already mean what pyadapt's rows say, so this decoder renames and merges only.
"""
import opcode as _cpy_opcode

from . import _decode

_BACKWARD = {"JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT",
             "POP_JUMP_BACKWARD_IF_FALSE", "POP_JUMP_BACKWARD_IF_TRUE",
             "POP_JUMP_BACKWARD_IF_NONE", "POP_JUMP_BACKWARD_IF_NOT_NONE"}

# CPython instruction -> pyadapt instruction, where the names differ.
RENAME = {
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
# CPython instructions with no pyadapt counterpart: their work is done by the next one
# (3.11's PRECALL + CALL is pyadapt's CALL).
DROPPED = {"PRECALL": "CALL"}


def entries(ops, lib):
    """The rows of pa_decoder for this CPython (``_decode.rows``); `ops` is
    ``_compiler.OPS``."""
    return _decode.rows(_cpy_opcode, ops, lib, RENAME, _BACKWARD, DROPPED)
