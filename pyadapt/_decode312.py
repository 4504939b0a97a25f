"""The decoder of CPython 3.12's bytecode: how each 3.12 opcode lowers to pyadapt's
instructions, as data for the C compiler's ``pa_decoder`` table (see ``_decode311``, whose
shape this follows).

What 3.12 changed that is more than a name (each is data here, none is code run at compile
time): ``LOAD_ATTR``'s oparg bit 0 asks for a method load (pyadapt's ``LOAD_METHOD``, whose
stack is the same), the name index above it; ``COMPARE_OP``'s comparison is ``oparg >> 4``;
``LOAD_SUPER_ATTR``'s bit 0 is a method load too; ``FOR_ITER``'s exhaustion target names the
``END_FOR`` it skips, and ``SEND``'s the ``END_SEND`` (pyadapt's ``FOR_ITER`` pops the
iterator and its ``SEND`` replaces the receiver with the result, which is what those do);
``LOAD_FAST_CHECK`` is 3.11's ``LOAD_FAST``, and 3.12's ``LOAD_FAST`` never meets an unbound
local, so both lower to pyadapt's checking ``LOAD_FAST``.  The typing intrinsics of PEP 695
have no pyadapt instruction: a code object using one runs natively.  ``INSTRUMENTED_*``
opcodes never reach the decoder: ``PyCode_GetCode`` gives the de-instrumented code, and a
frame of instrumented code goes to CPython's loop.
"""
import opcode as _cpy_opcode

from . import _decode


# CPython instruction -> pyadapt instruction, where the names differ.
RENAME = {
    "JUMP_FORWARD": "JUMP",
    "JUMP_BACKWARD": "JUMP",
    "JUMP_BACKWARD_NO_INTERRUPT": "JUMP_NO_INTERRUPT",
    "LOAD_FAST_CHECK": "LOAD_FAST",
}
_BACKWARD = {"JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT"}
DROPPED = {}
# name: (pyadapt instruction when bit 0 of the oparg is set, oparg shift)
_ALT = {
    "LOAD_ATTR": ("LOAD_METHOD", 1),
    "LOAD_SUPER_ATTR": ("LOAD_SUPER_METHOD", 1),
}
_SHIFT = {"COMPARE_OP": 4}
_JUMP_EXTRA = {"FOR_ITER": 1, "SEND": 1}
# opargs from which on an intrinsic has no pyadapt meaning
_ARG_LIMIT = {"CALL_INTRINSIC_1": "PA_INTRINSIC1_COUNT", "CALL_INTRINSIC_2": "PA_INTRINSIC2_COUNT"}


def entries(ops, lib):
    """The rows of pa_decoder for this CPython (``_decode.rows``); `ops` is
    ``_compiler.OPS``."""
    return _decode.rows(_cpy_opcode, ops, lib, RENAME, _BACKWARD, DROPPED, alt=_ALT, shift=_SHIFT, jump_extra=_JUMP_EXTRA,
                        arg_limit=_ARG_LIMIT)
