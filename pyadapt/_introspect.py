"""pyadapt's view of its own code: instructions as they are now, their caches, statistics.

One model serves everything that shows pyadapt's state -- ``get_instructions`` (data),
``dis`` (text), ``stats`` (counts) and the HTML report: an :class:`Instruction` per pyadapt
instruction, read straight from the C unit through cffi.
"""
import dis as _dis
import opcode as _opcode
import sys
import types
from collections import namedtuple

from . import _pyadapt as _core
from ._compiler import OPS, OPNAMES
from ._pyadapt import ffi, lib

__all__ = ["Instruction", "get_instructions", "dis", "stats", "reset_stats", "code_objects_of"]

Instruction = namedtuple(
    "Instruction",
    "opname opcode arg argval argrepr offset cpy_offset starts_line is_jump_target "
    "positions family kind caches hits counter failure",
)
Instruction.__doc__ = """One pyadapt instruction as it is now.

opname/opcode   the instruction (a specialized, adaptive or generic form, or a superinstruction)
arg             its oparg; argval/argrepr as in the standard dis (jump targets: pyadapt offsets)
offset          index of the instruction word in the unit's code (32-bit units)
cpy_offset      the CPython bytecode offset (bytes) it was compiled from (what f_lasti shows)
starts_line     the source line, where a new line starts here, else None
positions       dis.Positions of the source span (from the code object's position table)
family          the family's generic instruction name
kind            "specialized", "adaptive", "generic" or "super"
caches          tuple of (field, value) of the inline cache, in layout order
hits            times this site passed its specialized guards (since it last specialized)
counter         countdown of the site's counter (warmup/backoff, or remaining miss budget)
failure         why the last specialization attempt failed, or None
"""

_FAIL_NAMES = [ffi.string(lib.pa_fail_names[i]).decode() if lib.pa_fail_names[i] else None
               for i in range(lib.PA_NUM_FAIL_KINDS)]
_FALLBACK_NAMES = [ffi.string(lib.pa_fallback_names[i]).decode()
                   for i in range(lib.PA_NUM_FALLBACKS)]
_CACHE_FIELDS = {}


def _cache_fields(cache_type):
    if cache_type not in _CACHE_FIELDS:
        _CACHE_FIELDS[cache_type] = [name for name, _ in ffi.typeof(cache_type).fields]
    return _CACHE_FIELDS[cache_type]


def _family_code(op):
    return lib.pa_opinfo_table[op].family


def _code_of(obj):
    if isinstance(obj, types.CodeType):
        return obj
    for attr in ("__func__", "fget"):
        inner = getattr(obj, attr, None)
        if inner is not None:
            return _code_of(inner)
    code = getattr(obj, "__code__", None)
    if isinstance(code, types.CodeType):
        return code
    raise TypeError("expected a function, method or code object, not %s" % type(obj).__name__)


def _unit(code, compile_if_needed=True):
    addr = _core.unit_address(code)
    if not addr and compile_if_needed:
        addr = _core.compile(code)      # compiled for display, not run
    if not addr:
        return None
    unit = ffi.cast("pa_unit *", addr)
    return None if unit.reject_reason else unit


def _argrepr(code, info, arg):
    name = info.name
    family = OPNAMES[_family_code(info.code)]
    flags = info.flags
    if flags & lib.PA_F_JUMP:
        return arg, "to %d" % arg
    if family == "LOAD_GLOBAL":
        n = code.co_names[arg >> 1]
        return n, ("NULL + " + n) if arg & 1 else n
    if flags & lib.PA_F_NAME:
        n = code.co_names[arg]
        return n, n
    if flags & lib.PA_F_CONST or name.startswith("LOAD_CONST"):
        c = code.co_consts[arg]
        return c, repr(c)
    if flags & lib.PA_F_LOCAL or name.startswith(("LOAD_FAST", "STORE_FAST")):
        n = code._varname_from_oparg(arg)
        return n, n
    if family == "COMPARE_OP":
        return _opcode.cmp_op[arg], _opcode.cmp_op[arg]
    if family == "BINARY_OP":
        s = _opcode._nb_ops[arg][1]
        return s, s
    if family in ("IS_OP", "CONTAINS_OP"):
        return arg, ("is not" if family == "IS_OP" else "not in") if arg else ""
    return arg, ""


def get_instructions(obj, *, adaptive=True):
    """pyadapt's instructions for a function, method or code object, as data.

    adaptive=True gives the code as it is now (specialized forms, superinstructions,
    live caches); adaptive=False the code as compiled (generic forms).  A code object
    pyadapt has not seen yet is compiled, not run.
    """
    code = _code_of(obj)
    unit = _unit(code)
    if unit is None:
        return []
    words = unit.code if adaptive else unit.base_code
    positions = list(code.co_positions())
    lines = {}
    for start, _end, line in code.co_lines():
        lines.setdefault(start // 2, line)
    # jump targets
    targets = set()
    i = 0
    while i < unit.ncode:
        op = words[i] & 0xFF
        info = lib.pa_opinfo_table[op]
        if info.flags & lib.PA_F_JUMP:
            targets.add(words[i] >> 8)
        i += 1 + info.ncache
    out = []
    i = 0
    last_line = None
    while i < unit.ncode:
        word = words[i]
        op = word & 0xFF
        arg = word >> 8
        cinfo = lib.pa_opinfo_table[op]
        name = OPNAMES[op]
        info = OPS[name]
        family = OPNAMES[cinfo.family]
        cpy = unit.to_cpy[i]
        line = None
        for off in range(cpy, -1, -1):
            if off in lines:
                line = lines[off]
                break
        starts_line = line if line != last_line else None
        last_line = line
        caches = ()
        if cinfo.ncache:
            fields = _cache_fields(info.cache_type)
            caches = tuple((f, words[i + 1 + k]) for k, f in enumerate(fields))
        argval, argrepr = _argrepr(code, info, arg)
        if cinfo.flags & lib.PA_F_SUPER:
            kind = "super"
        elif cinfo.flags & lib.PA_F_ADAPTIVE:
            kind = "adaptive"
        elif cinfo.family != op:
            kind = "specialized"
        else:
            kind = "generic"
        counter = words[i + 1] if cinfo.ncache else 0
        failure = _FAIL_NAMES[counter >> 24] if cinfo.ncache and counter >> 24 else None
        hits = words[i + 2] if cinfo.ncache >= 2 and kind == "specialized" else 0
        pos = positions[cpy] if cpy < len(positions) else None
        out.append(Instruction(name, op, arg, argval, argrepr, i, cpy * 2, starts_line,
                               i in targets, _dis.Positions(*pos) if pos else None, family,
                               kind, caches, hits, counter & 0xFFFFF, failure))
        i += 1 + cinfo.ncache
    return out


def code_objects_of(obj):
    """The code objects dis shows for obj: functions, methods, classes, modules, code."""
    if isinstance(obj, types.ModuleType) or isinstance(obj, type):
        result = []
        for value in vars(obj).values():
            if isinstance(value, (staticmethod, classmethod)):
                value = value.__func__
            if isinstance(value, property):
                value = value.fget
            if isinstance(value, (types.FunctionType, types.MethodType)) or \
                    (isinstance(value, type) and isinstance(obj, types.ModuleType)
                     and value.__module__ == obj.__name__):
                result.append((getattr(value, "__qualname__", repr(value)), value))
        return result
    return [(None, obj)]


def _dis_code(code, *, adaptive, show_caches, file, depth=0):
    for ins in get_instructions(code, adaptive=adaptive):
        line = "%4d" % ins.starts_line if ins.starts_line is not None else "    "
        if ins.starts_line is not None and ins.offset:
            print(file=file)
        mark = ">>" if ins.is_jump_target else "  "
        argtext = "" if ins.opname in _NO_ARG else str(ins.arg)
        text = "%s %s %5d %-32s %s" % (line, mark, ins.offset, ins.opname, argtext)
        if ins.argrepr:
            text = "%-60s (%s)" % (text, ins.argrepr)
        print(text.rstrip(), file=file)
        if show_caches and ins.caches:
            for k, (field, value) in enumerate(ins.caches):
                detail = ""
                if field == "counter":
                    detail = "countdown %d" % (value & 0xFFFFF)
                    if (value >> 20) & 0xF:
                        detail += ", backoff %d" % ((value >> 20) & 0xF)
                    if value >> 24:
                        detail += ", last failure: %s" % _FAIL_NAMES[value >> 24]
                text = "%s    %5d %-32s %s=%d" % (" " * 4, ins.offset + 1 + k, "CACHE", field,
                                                 value)
                print(text + ("  (%s)" % detail if detail else ""), file=file)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            print(file=file)
            print("Disassembly of %r:" % const, file=file)
            _dis_code(const, adaptive=adaptive, show_caches=show_caches, file=file,
                      depth=depth + 1)


_NO_ARG = {name for name, info in OPS.items()
           if name in ("NOP", "POP_TOP", "PUSH_NULL", "RETURN_VALUE", "GET_ITER",
                       "GET_LEN", "MATCH_MAPPING", "MATCH_SEQUENCE", "MATCH_KEYS",
                       "PUSH_EXC_INFO", "CHECK_EXC_MATCH", "CHECK_EG_MATCH",
                       "WITH_EXCEPT_START", "GET_AITER", "GET_ANEXT", "BEFORE_ASYNC_WITH",
                       "BEFORE_WITH", "END_ASYNC_FOR", "DELETE_SUBSCR", "GET_YIELD_FROM_ITER",
                       "PRINT_EXPR", "LOAD_BUILD_CLASS", "LOAD_ASSERTION_ERROR",
                       "RETURN_GENERATOR", "LIST_TO_TUPLE", "IMPORT_STAR", "SETUP_ANNOTATIONS",
                       "YIELD_VALUE", "ASYNC_GEN_WRAP", "PREP_RERAISE_STAR", "POP_EXCEPT",
                       "UNARY_POSITIVE", "UNARY_NEGATIVE", "UNARY_NOT", "UNARY_INVERT")
           or OPNAMES[info.code] in ("BINARY_SUBSCR", "STORE_SUBSCR")
           or lib.pa_opinfo_table[info.code].family in (OPS["BINARY_SUBSCR"].code,
                                                        OPS["STORE_SUBSCR"].code)}


def dis(obj, *, adaptive=True, show_caches=False, file=None):
    """Print pyadapt's instructions for a function, method, class, module or code object,
    in the layout of the standard dis: line, offset (pyadapt units), name, argument.

    adaptive=True shows the code as it runs now (specialized forms, superinstructions);
    adaptive=False the code as compiled.  show_caches=True adds every inline cache entry,
    decoded by field name.
    """
    file = file if file is not None else sys.stdout
    for title, item in code_objects_of(obj):
        if isinstance(item, type):
            print("Disassembly of %s:" % title, file=file)
            dis(item, adaptive=adaptive, show_caches=show_caches, file=file)
            continue
        if title is not None:
            print("Disassembly of %s:" % title, file=file)
        try:
            code = _code_of(item)
        except TypeError:
            continue
        _dis_code(code, adaptive=adaptive, show_caches=show_caches, file=file)
        if title is not None:
            print(file=file)


def stats():
    """Counters of pyadapt's loop since start (or the last reset_stats())."""
    s = ffi.addressof(lib, "pa_stats")
    hits = _core._hits_by_opcode()
    families = {}
    forms = {}
    for op in range(lib.pa_num_opcodes):
        info = lib.pa_opinfo_table[op]
        st = lib.pa_op_stats[op]
        name = OPNAMES[op]
        if info.family == op and (info.ncache or st.specialized or st.failures):
            kinds = {_FAIL_NAMES[k]: st.failure_kinds[k]
                     for k in range(1, lib.PA_NUM_FAIL_KINDS) if st.failure_kinds[k]}
            families[name] = {"specialized": st.specialized, "failures": st.failures,
                              "failure_kinds": kinds, "deferred": 0, "hits": 0,
                              "misses": 0, "deopts": 0}
    for op in range(lib.pa_num_opcodes):
        info = lib.pa_opinfo_table[op]
        st = lib.pa_op_stats[op]
        name = OPNAMES[op]
        family = OPNAMES[info.family]
        if info.flags & lib.PA_F_ADAPTIVE:
            families[family]["deferred"] += st.deferred
        elif info.family != op:
            forms[name] = {"family": family, "hits": hits[op], "misses": st.misses,
                           "deopts": st.deopts}
            families[family]["hits"] += hits[op]
            families[family]["misses"] += st.misses
            families[family]["deopts"] += st.deopts
    return {
        "instructions": s.instructions,
        "frames": s.frames,
        "inlined_calls": s.inlined_calls,
        "compiled": s.compiled,
        "fallbacks": {_FALLBACK_NAMES[i]: s.fallbacks[i]
                      for i in range(1, lib.PA_NUM_FALLBACKS)},
        "families": families,
        "specialized": forms,
    }


def reset_stats():
    """Zero every counter of stats(), including each site's hit count."""
    size = ffi.sizeof("pa_stats_t")
    ffi.memmove(ffi.addressof(lib, "pa_stats"), bytes(size), size)
    size = ffi.sizeof("pa_opstats") * 256
    ffi.memmove(ffi.addressof(lib, "pa_op_stats"), bytes(size), size)
    _core._reset_site_hits()
