"""pyadapt's view of its own code: instructions as they are now, their caches, statistics.

One model serves everything that shows pyadapt's state -- ``get_instructions`` (data),
``dis`` (text), ``stats`` (counts) and the HTML report: an :class:`Instruction` per pyadapt
instruction, read straight from the C unit through cffi.
"""
import dis as _dis
import sys
import types
from collections import namedtuple

from . import _pyadapt as _core, _word
from ._compiler import (BINARY_OPS, COMPARE_OPS, INTRINSIC_1_NAMES, INTRINSIC_2_NAMES, OPS,
                        OPNAMES)
from ._pyadapt import ffi, lib

__all__ = ["Instruction", "get_instructions", "dis", "distb", "stats", "reset_stats"]

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


_HAVE_CODE = (types.MethodType, types.FunctionType, types.CodeType, classmethod, staticmethod,
              type)     # what dis.dis disassembles among a class's or a module's attributes


def _unwrap(x):
    """What dis.dis looks through: a method to its function, then a function, generator,
    async generator or coroutine to its code object."""
    if hasattr(x, "__func__"):
        x = x.__func__
    if hasattr(x, "__code__"):
        x = x.__code__
    elif hasattr(x, "gi_code"):
        x = x.gi_code
    elif hasattr(x, "ag_code"):
        x = x.ag_code
    elif hasattr(x, "cr_code"):
        x = x.cr_code
    return x


def _compile_source(source, name):
    """A source string as dis compiles it: an expression if it is one, else statements."""
    try:
        return compile(source, name, "eval")
    except SyntaxError:
        return compile(source, name, "exec")


def _code_of(obj):
    """The code object of what dis.get_instructions takes (a function, method, generator,
    coroutine, code object or source string); TypeError, worded as dis words it, otherwise."""
    x = _unwrap(obj)
    if isinstance(x, str):
        x = _compile_source(x, "<disassembly>")
    if isinstance(x, types.CodeType):
        return x
    raise TypeError("don't know how to disassemble %s objects" % type(x).__name__)


def _unit(code, compile_if_needed=True):
    addr = _core.unit_address(code)
    if not addr and compile_if_needed:
        addr = _core.compile(code)      # compiled for display, not run
    if not addr:
        return None
    unit = ffi.cast("pa_unit *", addr)
    return None if unit.reject_reason else unit


def _argrepr(code, unit, info, arg):
    """(argval, argrepr) of an oparg, by what its row says the oparg is (OpInfo.arg)."""
    kind = info.arg
    if kind == "jump":
        # pyadapt's target, then CPython's offset for it, as dis.dis shows it
        cpy = unit.to_cpy[arg] * 2 if 0 <= arg < unit.ncode else None
        return arg, "to %d" % arg if cpy is None else "to %d [%d]" % (arg, cpy)
    if kind == "global":
        n = code.co_names[arg >> 1]
        return n, ("NULL + " + n) if arg & 1 else n
    if kind == "name":
        n = code.co_names[arg]
        return n, n
    if kind == "const":
        c = code.co_consts[arg]
        return c, repr(c)
    if kind == "local":
        n = code._varname_from_oparg(arg)
        return n, n
    if kind == "local_pair":
        pair = (code._varname_from_oparg(arg >> 4), code._varname_from_oparg(arg & 15))
        return pair, ", ".join(pair)
    if kind == "compare":
        return COMPARE_OPS[arg], COMPARE_OPS[arg]
    if kind == "binary_op":
        return BINARY_OPS[arg], BINARY_OPS[arg]
    if kind == "super":
        n = code.co_names[arg >> 1]
        return n, n
    if kind == "intrinsic_1":
        return INTRINSIC_1_NAMES[arg], INTRINSIC_1_NAMES[arg]
    if kind == "intrinsic_2":
        return INTRINSIC_2_NAMES[arg], INTRINSIC_2_NAMES[arg]
    if kind in ("is", "in"):
        return arg, ("is not" if kind == "is" else "not in") if arg else ""
    return arg, ""


def get_instructions(obj, *, adaptive=True):
    """pyadapt's instructions, as data, for what dis.get_instructions takes: a function,
    method, generator, coroutine, async generator, code object or source string (compiled as
    dis compiles it); TypeError for anything else.

    adaptive=True (the default here, unlike dis.get_instructions) gives the code as it is now
    (specialized forms, superinstructions, live caches); adaptive=False the code as compiled
    (generic forms).  A code object pyadapt has not seen yet is compiled, not run.  [] for a
    code object pyadapt does not run (see pyadapt.unit_info).
    """
    code = _code_of(obj)
    unit = _unit(code)
    if unit is None:
        return []
    # units keep no copy of their generic code: compiled again for adaptive=False
    words = unit.code if adaptive else memoryview(_core.generic_code(code)).cast("I")
    positions = list(code.co_positions())
    lines = {}
    for start, _end, line in code.co_lines():
        lines.setdefault(start // 2, line)
    # jump targets
    targets = set()
    i = 0
    while i < unit.ncode:
        op = _word.opcode(words[i])
        info = lib.pa_opinfo_table[op]
        if info.arg == lib.PA_ARG_JUMP:
            targets.add(_word.oparg(words[i]))
        i += 1 + info.ncache
    out = []
    i = 0
    last_line = None
    while i < unit.ncode:
        word = words[i]
        op = _word.opcode(word)
        arg = _word.oparg(word)
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
        argval, argrepr = _argrepr(code, unit, info, arg)
        if cinfo.flags & lib.PA_F_SUPER:
            kind = "super"
        elif cinfo.flags & lib.PA_F_ADAPTIVE:
            kind = "adaptive"
        elif cinfo.family != op:
            kind = "specialized"
        else:
            kind = "generic"
        counter = words[i + 1 + _word.COUNTER] if cinfo.ncache else 0
        failure = _FAIL_NAMES[_word.failure_kind(counter)] if _word.failure_kind(counter) else None
        hits = words[i + 1 + _word.HITS] if cinfo.ncache and kind == "specialized" else 0
        pos = positions[cpy] if cpy < len(positions) else None
        out.append(Instruction(name, op, arg, argval, argrepr, i, cpy * 2, starts_line,
                               i in targets, _dis.Positions(*pos) if pos else None, family,
                               kind, caches, hits, _word.countdown(counter), failure))
        i += 1 + cinfo.ncache
    return out


_type_dict = type.__dict__["__dict__"].__get__     # a class's own namespace, unshadowable
_MISSING = object()

# The specialized forms whose cache holds a borrowed object pointer as a (lo, hi) pair: the
# pair's name, and the class attribute it was read from (None: the instruction's co_names
# entry).  LOAD_ATTR_INSTANCE_VALUE reuses descr_lo/descr_hi, like STORE_ATTR_INSTANCE_VALUE
# its version_2/version_3, as two more types (type slots: a version and an index, 0 if free,
# _word.type_slot), and CALL_PY_EXACT_ARGS min_args/init_lo/init_hi (CALL_PY_WITH_DEFAULTS
# init_lo/init_hi) as more function versions, free while they repeat func_version
# (_EXTRA_VERSIONS: the first version's field, what the versions are of, the extra fields):
# not pointers.
_POINTER_FORMS = {
    "LOAD_ATTR_CLASS": ("descr", None),
    "LOAD_ATTR_PROPERTY": ("descr", None),
    "LOAD_ATTR_GETATTRIBUTE_OVERRIDDEN": ("descr", "__getattribute__"),
    "LOAD_ATTR_NONDESCRIPTOR_WITH_VALUES": ("descr", None),
    "LOAD_ATTR_NONDESCRIPTOR_NO_DICT": ("descr", None),
    "LOAD_METHOD_WITH_VALUES": ("descr", None),
    "LOAD_METHOD_NO_DICT": ("descr", None),
    "LOAD_METHOD_LAZY_DICT": ("descr", None),
    "LOAD_METHOD_WITH_DICT": ("descr", None),
    "LOAD_METHOD_CLASS": ("descr", None),
    "CALL_PY_CLASS": ("init", "__init__"),
    "LOAD_SUPER_ATTR_INSTANCE": ("descr", None),
    "LOAD_SUPER_ATTR_CLASS": ("descr", None),
    "LOAD_SUPER_METHOD_INSTANCE": ("descr", None),
    "LOAD_SUPER_METHOD_CLASS": ("descr", None),
}
# LOAD_ATTR_INSTANCE_VALUE_MEGA keeps types it met in its own fields, as type slots, each in
# the field of its version modulo 3 (the shared attribute table holds all of them)
_MEMO_SLOTS = {"LOAD_ATTR_INSTANCE_VALUE_MEGA": ("type_version", "descr_lo", "descr_hi")}
# LOAD_METHOD_WITH_VALUES_MEGA keeps the shared table's entry it used last in descr_lo/descr_hi
# (an address in pyadapt's table, not an object)
_MEMO_ENTRY_FORMS = {"LOAD_METHOD_WITH_VALUES_MEGA"}
_EXTRA_VERSIONS = {
    "LOAD_ATTR_INSTANCE_VALUE": ("type_version", "type", ("descr_lo", "descr_hi")),
    "STORE_ATTR_INSTANCE_VALUE": ("type_version", "type", ("version_2", "version_3")),
    "CALL_PY_EXACT_ARGS": ("func_version", "function", ("min_args", "init_lo", "init_hi")),
    "CALL_PY_WITH_DEFAULTS": ("func_version", "function", ("init_lo", "init_hi")),
}


class _ClassAttributes:
    """Names the object a cached pointer points to, without reading memory at that address.

    A cache holds borrowed pointers: a site whose guard has not failed yet may still hold the
    address of an object since freed.  So a pointer is only compared with the addresses (id)
    of live objects: the attributes of that name in the namespace of every class (found from
    object through __subclasses__), built once per name and disassembly.
    """

    def __init__(self):
        self._classes = None
        self._by_name = {}

    def find(self, name, address):
        table = self._by_name.get(name)
        if table is None:
            if self._classes is None:
                self._classes, stack = {}, [object]
                while stack:
                    cls = stack.pop()
                    if id(cls) not in self._classes:
                        self._classes[id(cls)] = cls
                        stack.extend(type.__subclasses__(cls))
            table = self._by_name[name] = {}
            for cls in self._classes.values():
                value = _type_dict(cls).get(name, _MISSING)
                if value is not _MISSING:
                    table.setdefault(id(value), (cls, value))
        return table.get(address)

    def find_class(self, address):
        """The live class at `address`, or None."""
        self.find("__class__", 0)          # builds the table of classes
        return self._classes.get(address)

    def describe(self, name, address):
        found = self.find(name, address)
        if found is None:
            return "no live class attribute %r at this address" % name
        owner, value = found
        where = "%s.%s" % (owner.__qualname__, name)
        if isinstance(value, types.FunctionType):
            return "function %s" % value.__qualname__
        if isinstance(value, property):
            return "property %s" % where
        if isinstance(value, type):
            return "class %s" % value.__qualname__
        try:
            text = repr(value)
        except Exception as exc:       # a user __repr__: dis shows what it can
            text = "<%s object: repr raised %s>" % (type(value).__name__, type(exc).__name__)
        if len(text) > 60:
            text = text[:57] + "..."
        return "%s = %s" % (where, text)


def _type_slot_detail(label, slot):
    if _word.type_slot_version(slot) == 0:
        return "%s: free" % label
    return "%s: version %d, index %d" % (label, _word.type_slot_version(slot),
                                         _word.type_slot_index(slot))


def _cache_lines(code, ins, objects):
    """(offset, text, detail) per line of an instruction's inline cache: one line per field,
    a (lo, hi) pair as one value, decoded to the object it names where the form reads it as a
    pointer; the extra type versions of _EXTRA_VERSIONS as such."""
    fields = dict(ins.caches)
    pointer = _POINTER_FORMS.get(ins.opname)
    first, what, extra = _EXTRA_VERSIONS.get(ins.opname, (None, None, ()))
    out = []
    k = 0
    while k < len(ins.caches):
        field, value = ins.caches[k]
        offset = ins.offset + 1 + k
        k += 1
        detail = ""
        if field == "counter":
            detail = "countdown %d" % _word.countdown(value)
            if _word.backoff(value):
                detail += ", backoff %d" % _word.backoff(value)
            if _word.failure_kind(value):
                detail += ", last failure: %s" % _FAIL_NAMES[_word.failure_kind(value)]
        elif field in _MEMO_SLOTS.get(ins.opname, ()):
            detail = _type_slot_detail("type met", value)
        elif field in extra and what == "type":
            detail = _type_slot_detail("type %d" % (extra.index(field) + 2), value)
        elif field in extra:
            detail = "%s version %d" % (what, extra.index(field) + 2)
            if value == fields[first]:
                detail += ", free: repeats %s" % first
        elif field == "descr_lo" and ins.opname in _MEMO_ENTRY_FORMS:
            address = fields["descr_hi"] << 32 | value
            detail = "the shared table's entry used last" if address else "no table entry yet"
            out.append((offset, "descr=%#x" % address, detail))
            k += 1          # the _hi half is part of this value
            continue
        elif field.endswith("_lo") and field[:-3] + "_hi" in fields:
            stem = field[:-3]
            address = fields[stem + "_hi"] << 32 | value
            if pointer is not None and pointer[0] == stem:
                name_index = ins.arg >> 1 if OPS[ins.opname].arg == "super" else ins.arg
                detail = objects.describe(pointer[1] or code.co_names[name_index], address)
            elif pointer is not None and stem == "class":     # super()'s class, compared
                found = objects.find_class(address)
                detail = "class %s" % found.__qualname__ if found else "no live class at this address"
            elif address:
                detail = "not read by %s" % ins.opname
            out.append((offset, "%s=%#x" % (stem, address), detail))
            k += 1          # the _hi half is part of this value
            continue
        out.append((offset, "%s=%d" % (field, value), detail))
    return out


def _has_arg(ins):
    """Whether dis would print an argument: the instruction's row says it has an oparg."""
    return OPS[ins.opname].arg != "none"


def _disassemble(code, *, adaptive, show_caches, file, lasti=-1, objects=None):
    """One code object in dis's layout, with pyadapt's offset and, in brackets, the CPython
    offset (as dis.dis prints it) of the instruction it was compiled from."""
    instructions = get_instructions(code, adaptive=adaptive)
    if not instructions:
        addr = _core.unit_address(code)
        unit = ffi.cast("pa_unit *", addr) if addr else None
        why = _FALLBACK_NAMES[unit.reject_reason] if unit and unit.reject_reason else "no unit"
        if unit and unit.reject_reason and unit.reject_detail:
            why += " (%s)" % ffi.string(unit.reject_detail).decode()
        print("    (pyadapt does not run this code object: %s; CPython's loop does)" % why,
              file=file)
        return
    objects = objects if objects is not None else _ClassAttributes()
    lines = [ins.starts_line for ins in instructions if ins.starts_line is not None]
    line_width = len(str(max(lines))) if lines and max(lines) >= 1000 else 3
    last = instructions[-1]
    offset_width = max(4, len(str(last.offset + len(last.caches))))
    cpy_width = max(4, len(str(last.cpy_offset)))
    name_width = max(20, max(len(ins.opname) for ins in instructions))
    current = None
    if lasti >= 0:
        current = max((ins for ins in instructions if ins.cpy_offset <= lasti),
                      key=lambda ins: ins.cpy_offset, default=None)
    for ins in instructions:
        if ins.starts_line is not None and ins.offset:
            print(file=file)
        fields = [("%*d" % (line_width, ins.starts_line)) if ins.starts_line is not None
                  else " " * line_width,
                  "-->" if ins is current else "   ",
                  ">>" if ins.is_jump_target else "  ",
                  "%*d" % (offset_width, ins.offset),
                  "[%*d]" % (cpy_width, ins.cpy_offset),
                  ins.opname.ljust(name_width)]
        if _has_arg(ins):
            fields.append(repr(ins.arg).rjust(5))
            if ins.argrepr:
                fields.append("(%s)" % ins.argrepr)
        print(" ".join(fields).rstrip(), file=file)
        if show_caches and ins.caches:
            for offset, text, detail in _cache_lines(code, ins, objects):
                fields = [" " * line_width, "   ", "  ", "%*d" % (offset_width, offset),
                          " " * (cpy_width + 2), "CACHE".ljust(name_width), text]
                if detail:
                    fields.append("(%s)" % detail)
                print(" ".join(fields), file=file)


def _disassemble_recursive(code, *, adaptive, show_caches, file, depth, objects):
    _disassemble(code, adaptive=adaptive, show_caches=show_caches, file=file, objects=objects)
    if depth is None or depth > 0:
        if depth is not None:
            depth -= 1
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                print(file=file)
                print("Disassembly of %r:" % (const,), file=file)
                _disassemble_recursive(const, adaptive=adaptive, show_caches=show_caches,
                                       file=file, depth=depth, objects=objects)


def dis(x=None, *, file=None, depth=None, show_caches=False, adaptive=False):
    """Disassemble what dis.dis disassembles -- a function, method, class, module, code
    object, generator, coroutine, async generator or source string; with no argument the
    last traceback -- as pyadapt runs it, in dis's layout: line, pyadapt offset (32-bit
    units), [the CPython offset dis.dis shows], name, argument.  A class or module gives each
    of its functions, methods, classes and code objects under "Disassembly of NAME:", as dis
    does; anything else (an int, a builtin function, raw bytecode) raises TypeError.

    adaptive=False (the default, as in dis.dis) shows the code as pyadapt compiled it
    (generic forms); adaptive=True as it runs now (specialized forms, superinstructions).
    show_caches=True adds every inline cache entry, decoded by field name; a cached object
    pointer is one value, named when it is a live class attribute.
    """
    _dis_any(x, file=file if file is not None else sys.stdout, depth=depth,
         show_caches=show_caches, adaptive=adaptive, objects=_ClassAttributes())


def _dis_any(x, *, file, depth, show_caches, adaptive, objects):
    if x is None:
        distb(file=file, show_caches=show_caches, adaptive=adaptive)
        return
    x = _unwrap(x)
    if hasattr(x, "__dict__"):          # a class or a module
        for name, value in sorted(x.__dict__.items()):
            if isinstance(value, _HAVE_CODE):
                print("Disassembly of %s:" % name, file=file)
                try:
                    _dis_any(value, file=file, depth=depth, show_caches=show_caches,
                             adaptive=adaptive, objects=objects)
                except TypeError as msg:
                    print("Sorry:", msg, file=file)
                print(file=file)
    elif isinstance(x, types.CodeType):
        _disassemble_recursive(x, adaptive=adaptive, show_caches=show_caches, file=file,
                               depth=depth, objects=objects)
    elif isinstance(x, str):
        _disassemble_recursive(_compile_source(x, "<dis>"), adaptive=adaptive,
                               show_caches=show_caches, file=file, depth=depth,
                               objects=objects)
    elif isinstance(x, (bytes, bytearray)):
        raise TypeError("pyadapt disassembles code objects, not raw bytecode (%s): its "
                        "units are compiled from a code object" % type(x).__name__)
    else:
        raise TypeError("don't know how to disassemble %s objects" % type(x).__name__)


def distb(tb=None, *, file=None, show_caches=False, adaptive=False):
    """Disassemble a traceback's innermost frame (default: the last traceback), marking with
    --> the instruction it stopped at, as dis.distb does."""
    if tb is None:
        try:
            tb = sys.last_traceback
        except AttributeError:
            raise RuntimeError("no last traceback to disassemble") from None
        while tb.tb_next:
            tb = tb.tb_next
    _disassemble(tb.tb_frame.f_code, adaptive=adaptive, show_caches=show_caches,
                 file=file if file is not None else sys.stdout, lasti=tb.tb_lasti)


def stats():
    """Counters of pyadapt's loop since start (or the last reset_stats()).

    "frames" is what proves that pyadapt ran something: frames its loop entered or resumed.
    "instructions" (instructions the loop executed) is None unless the core was built with
    PYADAPT_COUNT_INSTRUCTIONS=1: counting costs a memory increment per instruction."""
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
        # counted only by a build with PYADAPT_COUNT_INSTRUCTIONS=1 (a cost on every dispatch)
        "instructions": s.instructions if lib.pa_counts_instructions else None,
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
