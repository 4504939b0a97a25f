"""The decoder of CPython 3.13's bytecode: how each 3.13 opcode lowers to pyadapt's
instructions, as data for the C compiler's ``pa_decoder`` table (see ``_decode311``, whose
shape this follows, and ``_decode312``, whose changes 3.13 keeps).

3.13 renumbers nearly every opcode (the tables come from the interpreter's own ``opcode``
module, ``_inline_cache_entries`` now a dict by name).  What else is more than a name, as
data: ``COMPARE_OP``'s comparison is ``oparg >> 5`` (bit 4 asks for a bool result, which
pyadapt's consumers of it -- the conditional jumps, ``UNARY_NOT`` -- take from any object, so
it is dropped); ``FOR_ITER``'s exhaustion target names the ``END_FOR`` + ``POP_TOP`` pair it
skips (2 units), and ``END_FOR`` alone pops one item, pyadapt's ``POP_TOP``; ``SEND``'s target
is the ``END_SEND`` it skips; ``MAKE_FUNCTION`` takes the code only (pyadapt's with oparg 0)
and ``SET_FUNCTION_ATTRIBUTE`` gives it its parts one at a time; f-strings are
``CONVERT_VALUE``, ``FORMAT_SIMPLE``, ``FORMAT_WITH_SPEC``; ``TO_BOOL`` is a family of its own
(generic, adaptive and six specialized forms, as 3.13's; 3.13's own ``TO_BOOL_*`` forms in a
quickened ``co_code`` decode as ``TO_BOOL``, like every family's).

3.13's call stack layout (``callable, self_or_null, args``; 3.11's is ``NULL or method,
callable or self, args``) differs from pyadapt's only where a NULL sits: with a self (a
method load, a decorator, ``__exit__``'s ``None``) the two layouts are the same.  3.13's
``PUSH_NULL``, which its compiler emits right after the callable's evaluation, lowers to
``PUSH_NULL_UNDER`` (the NULL goes under the callable), and the other producers of the NULL
(``LOAD_GLOBAL``'s bit 0, the method forms of ``LOAD_ATTR`` and ``LOAD_SUPER_ATTR``) push
it first, as 3.11's do; ``CALL`` and ``CALL_FUNCTION_EX`` are then pyadapt's own, with
their adaptive family and specialized forms.

``CALL_KW`` (its keyword names a stack item, where pyadapt's ``CALL`` reads them from the
``KW_NAMES`` register) is a row of its own, ``CALL_KW``, which takes the names off the stack
and goes on as pyadapt's (generic) ``CALL``.  ``UNLOWERED`` lists the 3.13 instructions with no
pyadapt row (the compiler rejects a code object that has one, so it runs natively;
tests/test_decode313.py checks it): none today.  The fused local loads and stores
(``LOAD_FAST_LOAD_FAST``, ``STORE_FAST_LOAD_FAST``, ``STORE_FAST_STORE_FAST``) have rows of
the same names, whose oparg kind ``local_pair`` packs two locals (``oparg >> 4`` and
``oparg & 15``); pyadapt's own superinstructions (``LOAD_FAST__LOAD_FAST``) are made by
quickening from single instructions, which 3.13's compiler has fused already.
``ENTER_EXECUTOR`` never reaches the decoder (``co_code`` shows the instruction it replaced),
nor do ``INSTRUMENTED_*`` opcodes.  ``RESUME``'s oparg carries a depth flag in bit 2 above
where it resumes, which pyadapt's ``RESUME`` masks (``PA_RESUME_WHERE`` in the seam).
"""
import opcode as _cpy_opcode

from . import _decode, _decode312

# 3.12's lowering (its names, backward jumps, method bits, intrinsics), with 3.13's changes.
RENAME = {**_decode312.RENAME,
          "END_FOR": "POP_TOP",
          "PUSH_NULL": "PUSH_NULL_UNDER"}
DROPPED = {}
_SHIFT = {"COMPARE_OP": 5}
_JUMP_EXTRA = {**_decode312._JUMP_EXTRA, "FOR_ITER": 2}
# 3.13 instructions with no pyadapt row (see above): the compiler rejects their code
UNLOWERED = set()


def entries(ops, lib, cpy_opcode=_cpy_opcode):
    """The rows of pa_decoder for this CPython (``_decode.rows``); `ops` is
    ``_compiler.OPS``; `cpy_opcode` is 3.13's ``opcode`` module, or its tables as captured
    from a 3.13 interpreter (tests/test_decode313.py, run from another version)."""
    known = {name: info for name, info in ops.items() if name not in UNLOWERED}
    return _decode.rows(cpy_opcode, known, lib, RENAME, _decode312._BACKWARD, DROPPED,
                        alt=_decode312._ALT, shift=_SHIFT, jump_extra=_JUMP_EXTRA,
                        arg_limit=_decode312._ARG_LIMIT)
