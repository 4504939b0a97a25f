"""The walk over a CPython version's opcodes that every decoder (``_decode3XX``) shares: the
rows of the C compiler's ``pa_decoder`` table from a version's tables of names.
"""


def rows(cpy_opcode, ops, lib, rename, backward, dropped, alt=None, shift=None,
         jump_extra=None, arg_limit=None):
    """(op, kind, pa_op, ncache, jump, alt_op, arg_shift, jump_extra, arg_limit) for every
    opcode of `cpy_opcode` (that version's ``opcode`` module), pa_decode_entry's fields.

    rename: CPython name -> pyadapt name where they differ; backward: the relative jumps that
    go backward; dropped: instructions whose work the next one does; alt: name -> (pyadapt
    name when bit 0 of the oparg is set, oparg shift); shift: name -> oparg shift;
    jump_extra: name -> code units added to the jump target; arg_limit: name -> name of the
    cdef constant from which on an oparg has no pyadapt meaning."""
    alt, shift, jump_extra, arg_limit = alt or {}, shift or {}, jump_extra or {}, arg_limit or {}
    relative = set(cpy_opcode.hasjrel)
    caches = cpy_opcode._inline_cache_entries   # a list by opcode in 3.11, 3.12; a dict by name in 3.13
    if isinstance(caches, dict):
        caches = [caches.get(name, 0) for name in cpy_opcode.opname[:256]]
    cpy = cpy_opcode.opmap
    out = []
    for op in range(256):
        name = cpy_opcode.opname[op]
        jump = pa_op = alt_op = arg_shift = extra = limit = 0
        if op == cpy["EXTENDED_ARG"]:
            kind = lib.PA_DK_EXTENDED_ARG
        elif op == cpy["CACHE"]:
            kind = lib.PA_DK_CACHE
        elif name in dropped:
            kind = lib.PA_DK_DROP
        elif rename.get(name, name) in ops and not name.startswith("INSTRUMENTED_"):
            kind = lib.PA_DK_OP
            pa_op = ops[rename.get(name, name)].code
            if op in relative:
                jump = -1 if name in backward else 1
            if name in alt:
                alt_op, arg_shift = ops[alt[name][0]].code, alt[name][1]
            arg_shift = shift.get(name, arg_shift)
            extra = jump_extra.get(name, 0)
            limit = getattr(lib, arg_limit[name]) if name in arg_limit else 0
        else:
            kind = lib.PA_DK_UNKNOWN
        out.append((op, kind, pa_op, caches[op], jump, alt_op, arg_shift, extra, limit))
    # CPython's specialized forms decode as their family: the compiler may read a code
    # object's quickened code (3.11: no de-quickened copy made and kept), where a
    # specialized opcode keeps its oparg and its family's inline cache entries.  De-quickened
    # code never holds them, so the rows change nothing where that is what is read.
    numbers = getattr(cpy_opcode, "_specialized_opmap", None)   # 3.13
    if numbers is None:
        # 3.11, 3.12: the specialized forms take the unnamed opcodes in order (what `dis`
        # computes as _all_opmap; importing dis here would cost `import pyadapt` its imports)
        empty = [op for op, name in enumerate(cpy_opcode.opname) if name.startswith("<")]
        numbers = dict(zip(getattr(cpy_opcode, "_specialized_instructions", ()), empty))
    for family, forms in getattr(cpy_opcode, "_specializations", {}).items():
        base = out[cpy[family]]
        for form in forms:
            op = numbers.get(form, 256)
            if op < 256:
                out[op] = (op,) + base[1:]
    return out
