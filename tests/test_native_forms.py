"""Every specialized form of the native interpreter, with pyadapt's counterpart (issue 11).

``NATIVE_FORMS`` maps each form in ``opcode._specializations`` of CPython 3.11, 3.12 and 3.13
to the versions that have it and to the pyadapt form(s) that cover the same case on those
versions, or to ``MISSING`` with what pyadapt does instead.  The tests check that the table
lists exactly the running interpreter's forms (a form a new CPython adds cannot go unlisted),
that every pyadapt form it names exists and is an adaptive, specialized or superinstruction
form, that docs/architecture.md shows the same table, for native forms of every family that a
small program gives native results and that the named pyadapt form ran (its hits in
``pyadapt.stats()``), and that every specialized form the table names for the running version
runs there.
"""
import collections
import opcode
import os
import re
import sys

import pytest

import pyadapt
from pyadapt._compiler import OPS
from pyadapt._pyadapt import lib
import test_tobool as tobool
from harness import DEFAULT_CONFIG, check
from test_specializer import CASES as SPECIALIZER_CASES
from test_specializer import (Plain, f_binary_float, f_binary_int, f_binary_str,
                              f_contains, f_calls_builtin,
                              f_calls_method_descriptors, f_calls_python, f_compare_jump,
                              f_for_iter, f_load_attr_class, f_load_attr_instance_value,
                              f_load_attr_module, f_load_attr_nondescriptor,
                              f_load_attr_nondescriptor_no_dict, f_load_attr_property,
                              f_load_attr_slot, f_load_attr_with_hint, f_load_global_builtin,
                              f_load_global_module, f_load_method_lazy_dict, f_load_method_no_dict,
                              f_load_method_with_dict,
                              f_load_method_with_values, f_store_attr_instance_value,
                              f_store_attr_slot, f_store_subscr, f_subscr, f_subscr_str,
                              f_unpack)

VERSION = sys.version_info[:2]
V311, V312, V313 = (3, 11), (3, 12), (3, 13)
VERSIONS = (V311, V312, V313)
ALL = VERSIONS
V312_UP = (V312, V313)

Entry = collections.namedtuple("Entry", "versions forms note")


class MISSING:
    """No pyadapt form covers the native form's case; ``reason`` says what runs instead."""

    def __init__(self, reason):
        self.reason = reason


def on(versions, *forms, note=""):
    """The native form exists on ``versions``; pyadapt covers it with ``forms`` (pyadapt form
    names) or, given a MISSING, not at all."""
    if len(forms) == 1 and isinstance(forms[0], MISSING):
        return Entry(versions, (), forms[0].reason)
    assert forms and all(isinstance(f, str) for f in forms)
    return Entry(versions, forms, note)


METHOD = "a method load (LOAD_ATTR's oparg bit 0) is pyadapt's LOAD_METHOD family"
FUSED_JUMP = "followed by POP_JUMP_IF_*: the form fused with the jump"
PRECALL = "pyadapt's CALL is 3.11's PRECALL and CALL in one instruction"
UNBOUND = ("every CALL unpacks a bound method before it calls or specializes, so the "
           "function's own form runs")
GENERAL = ("positional arguments filled from defaults, bound to *args/**kwargs, keyword-only "
           "parameters from their defaults (up to 8 of them; a function with more runs the "
           "generic CALL)")
NO_QUICK = "none: the generic {} runs ({}); pyadapt has no quickened form of it"
RESUME = NO_QUICK.format("RESUME", "it checks the eval breaker")

NATIVE_FORMS = {
    # ---- attribute loads ----
    "LOAD_ATTR_ADAPTIVE": on((V311,), "LOAD_ATTR_ADAPTIVE"),
    "LOAD_ATTR_INSTANCE_VALUE": on(ALL, "LOAD_ATTR_INSTANCE_VALUE",
                                   note="pyadapt holds up to three types per site"),
    "LOAD_ATTR_WITH_HINT": on(ALL, "LOAD_ATTR_WITH_HINT"),
    "LOAD_ATTR_SLOT": on(ALL, "LOAD_ATTR_SLOT"),
    "LOAD_ATTR_MODULE": on(ALL, "LOAD_ATTR_MODULE"),
    "LOAD_ATTR_CLASS": on(V312_UP, "LOAD_ATTR_CLASS"),
    "LOAD_ATTR_PROPERTY": on(V312_UP, "LOAD_ATTR_PROPERTY"),
    "LOAD_ATTR_GETATTRIBUTE_OVERRIDDEN": on(V312_UP, "LOAD_ATTR_GETATTRIBUTE_OVERRIDDEN"),
    "LOAD_ATTR_METHOD_WITH_VALUES": on(V312_UP, "LOAD_METHOD_WITH_VALUES", note=METHOD),
    "LOAD_ATTR_METHOD_NO_DICT": on(V312_UP, "LOAD_METHOD_NO_DICT", note=METHOD),
    "LOAD_ATTR_METHOD_LAZY_DICT": on(V312_UP, "LOAD_METHOD_LAZY_DICT", note=METHOD),
    "LOAD_ATTR_NONDESCRIPTOR_WITH_VALUES": on((V313,), "LOAD_ATTR_NONDESCRIPTOR_WITH_VALUES"),
    "LOAD_ATTR_NONDESCRIPTOR_NO_DICT": on((V313,), "LOAD_ATTR_NONDESCRIPTOR_NO_DICT"),
    "LOAD_METHOD_ADAPTIVE": on((V311,), "LOAD_METHOD_ADAPTIVE"),
    "LOAD_METHOD_WITH_VALUES": on((V311,), "LOAD_METHOD_WITH_VALUES"),
    "LOAD_METHOD_NO_DICT": on((V311,), "LOAD_METHOD_NO_DICT"),
    "LOAD_METHOD_CLASS": on((V311,), "LOAD_METHOD_CLASS"),
    "LOAD_METHOD_MODULE": on((V311,), "LOAD_METHOD_MODULE"),
    "LOAD_METHOD_WITH_DICT": on((V311,), "LOAD_METHOD_WITH_DICT"),
    "LOAD_SUPER_ATTR_ATTR": on(V312_UP, "LOAD_SUPER_ATTR_INSTANCE", "LOAD_SUPER_ATTR_CLASS",
                               note="one form for an instance, one for a class"),
    "LOAD_SUPER_ATTR_METHOD": on(V312_UP, "LOAD_SUPER_METHOD_INSTANCE",
                                 "LOAD_SUPER_METHOD_CLASS",
                                 note="one form for an instance, one for a class"),
    # ---- attribute stores ----
    "STORE_ATTR_ADAPTIVE": on((V311,), "STORE_ATTR_ADAPTIVE"),
    "STORE_ATTR_INSTANCE_VALUE": on(ALL, "STORE_ATTR_INSTANCE_VALUE",
                                    note="pyadapt holds up to three types per site"),
    "STORE_ATTR_WITH_HINT": on(ALL, "STORE_ATTR_WITH_HINT"),
    "STORE_ATTR_SLOT": on(ALL, "STORE_ATTR_SLOT"),
    # ---- globals ----
    "LOAD_GLOBAL_ADAPTIVE": on((V311,), "LOAD_GLOBAL_ADAPTIVE"),
    "LOAD_GLOBAL_MODULE": on(ALL, "LOAD_GLOBAL_MODULE"),
    "LOAD_GLOBAL_BUILTIN": on(ALL, "LOAD_GLOBAL_BUILTIN"),
    # ---- binary operations and comparisons ----
    "BINARY_OP_ADAPTIVE": on((V311,), "BINARY_OP_ADAPTIVE"),
    "BINARY_OP_ADD_INT": on(ALL, "BINARY_OP_ADD_INT"),
    "BINARY_OP_SUBTRACT_INT": on(ALL, "BINARY_OP_SUBTRACT_INT"),
    "BINARY_OP_MULTIPLY_INT": on(ALL, "BINARY_OP_MULTIPLY_INT"),
    "BINARY_OP_ADD_FLOAT": on(ALL, "BINARY_OP_ADD_FLOAT"),
    "BINARY_OP_SUBTRACT_FLOAT": on(ALL, "BINARY_OP_SUBTRACT_FLOAT"),
    "BINARY_OP_MULTIPLY_FLOAT": on(ALL, "BINARY_OP_MULTIPLY_FLOAT"),
    "BINARY_OP_ADD_UNICODE": on(ALL, "BINARY_OP_ADD_UNICODE"),
    "BINARY_OP_INPLACE_ADD_UNICODE": on(ALL, "BINARY_OP_INPLACE_ADD_UNICODE"),
    "COMPARE_OP_ADAPTIVE": on((V311,), "COMPARE_OP_ADAPTIVE"),
    "COMPARE_OP_INT_JUMP": on((V311,), "COMPARE_OP_INT_JUMP"),
    "COMPARE_OP_FLOAT_JUMP": on((V311,), "COMPARE_OP_FLOAT_JUMP"),
    "COMPARE_OP_STR_JUMP": on((V311,), "COMPARE_OP_STR_JUMP"),
    "COMPARE_OP_INT": on(V312_UP, "COMPARE_OP_INT", "COMPARE_OP_INT_JUMP", note=FUSED_JUMP),
    "COMPARE_OP_FLOAT": on(V312_UP, "COMPARE_OP_FLOAT", "COMPARE_OP_FLOAT_JUMP",
                           note=FUSED_JUMP),
    "COMPARE_OP_STR": on(V312_UP, "COMPARE_OP_STR", "COMPARE_OP_STR_JUMP", note=FUSED_JUMP),
    "CONTAINS_OP_SET": on((V313,), "CONTAINS_OP_SET"),
    "CONTAINS_OP_DICT": on((V313,), "CONTAINS_OP_DICT"),
    "TO_BOOL_ALWAYS_TRUE": on((V313,), "TO_BOOL_ALWAYS_TRUE", "TO_BOOL_ALWAYS_TRUE_JUMP", note=FUSED_JUMP),
    "TO_BOOL_BOOL": on((V313,), "TO_BOOL_BOOL", "TO_BOOL_BOOL_JUMP", note=FUSED_JUMP),
    "TO_BOOL_INT": on((V313,), "TO_BOOL_INT", "TO_BOOL_INT_JUMP", note=FUSED_JUMP),
    "TO_BOOL_LIST": on((V313,), "TO_BOOL_LIST", "TO_BOOL_LIST_JUMP", note=FUSED_JUMP),
    "TO_BOOL_NONE": on((V313,), "TO_BOOL_NONE", "TO_BOOL_NONE_JUMP", note=FUSED_JUMP),
    "TO_BOOL_STR": on((V313,), "TO_BOOL_STR", "TO_BOOL_STR_JUMP", note=FUSED_JUMP),
    # ---- subscripts and unpacking ----
    "BINARY_SUBSCR_ADAPTIVE": on((V311,), "BINARY_SUBSCR_ADAPTIVE"),
    "BINARY_SUBSCR_LIST_INT": on(ALL, "BINARY_SUBSCR_LIST_INT"),
    "BINARY_SUBSCR_TUPLE_INT": on(ALL, "BINARY_SUBSCR_TUPLE_INT"),
    "BINARY_SUBSCR_DICT": on(ALL, "BINARY_SUBSCR_DICT"),
    "BINARY_SUBSCR_GETITEM": on(ALL, "BINARY_SUBSCR_GETITEM"),
    "BINARY_SUBSCR_STR_INT": on((V313,), "BINARY_SUBSCR_STR_INT", note=(
        "any character of a latin-1 str (3.13: an ASCII character of any str); a wider "
        "str runs the generic BINARY_SUBSCR")),
    "STORE_SUBSCR_ADAPTIVE": on((V311,), "STORE_SUBSCR_ADAPTIVE"),
    "STORE_SUBSCR_LIST_INT": on(ALL, "STORE_SUBSCR_LIST_INT"),
    "STORE_SUBSCR_DICT": on(ALL, "STORE_SUBSCR_DICT"),
    "UNPACK_SEQUENCE_ADAPTIVE": on((V311,), "UNPACK_SEQUENCE_ADAPTIVE"),
    "UNPACK_SEQUENCE_TWO_TUPLE": on(ALL, "UNPACK_SEQUENCE_TWO_TUPLE"),
    "UNPACK_SEQUENCE_TUPLE": on(ALL, "UNPACK_SEQUENCE_TUPLE"),
    "UNPACK_SEQUENCE_LIST": on(ALL, "UNPACK_SEQUENCE_LIST"),
    # ---- calls ----
    "CALL_ADAPTIVE": on((V311,), "CALL_ADAPTIVE"),
    "CALL_PY_EXACT_ARGS": on(ALL, "CALL_PY_EXACT_ARGS",
                             note="pyadapt holds up to four functions per site"),
    "CALL_PY_WITH_DEFAULTS": on((V311, V312), "CALL_PY_WITH_DEFAULTS"),
    "PRECALL_ADAPTIVE": on((V311,), "CALL_ADAPTIVE", note=PRECALL),
    "PRECALL_PYFUNC": on((V311,), "CALL_PY_EXACT_ARGS", "CALL_PY_WITH_DEFAULTS",
                         "CALL_PY_VARARGS", note=PRECALL),
    "PRECALL_BOUND_METHOD": on((V311,), "CALL_PY_EXACT_ARGS", "CALL_PY_WITH_DEFAULTS",
                               note=UNBOUND),
    "PRECALL_BUILTIN_CLASS": on((V311,), "CALL_BUILTIN_CLASS", note=PRECALL),
    "PRECALL_BUILTIN_FAST_WITH_KEYWORDS": on((V311,), "CALL_BUILTIN_FAST_WITH_KEYWORDS",
                                             note=PRECALL),
    "PRECALL_METHOD_DESCRIPTOR_FAST_WITH_KEYWORDS": on(
        (V311,), "CALL_METHOD_DESCRIPTOR_FAST_WITH_KEYWORDS", note=PRECALL),
    "PRECALL_NO_KW_BUILTIN_FAST": on((V311,), "CALL_BUILTIN_FAST", note=PRECALL),
    "PRECALL_NO_KW_BUILTIN_O": on((V311,), "CALL_BUILTIN_O", note=PRECALL),
    "PRECALL_NO_KW_ISINSTANCE": on((V311,), "CALL_ISINSTANCE", note=PRECALL),
    "PRECALL_NO_KW_LEN": on((V311,), "CALL_LEN", note=PRECALL),
    "PRECALL_NO_KW_LIST_APPEND": on((V311,), "CALL_LIST_APPEND", note=PRECALL),
    "PRECALL_NO_KW_METHOD_DESCRIPTOR_FAST": on((V311,), "CALL_METHOD_DESCRIPTOR_FAST",
                                               note=PRECALL),
    "PRECALL_NO_KW_METHOD_DESCRIPTOR_NOARGS": on((V311,), "CALL_METHOD_DESCRIPTOR_NOARGS",
                                                 note=PRECALL),
    "PRECALL_NO_KW_METHOD_DESCRIPTOR_O": on((V311,), "CALL_METHOD_DESCRIPTOR_O", note=PRECALL),
    "PRECALL_NO_KW_STR_1": on((V311,), "CALL_STR_1", note=PRECALL),
    "PRECALL_NO_KW_TUPLE_1": on((V311,), "CALL_TUPLE_1", note=PRECALL),
    "PRECALL_NO_KW_TYPE_1": on((V311,), "CALL_TYPE_1", note=PRECALL),
    "CALL_BOUND_METHOD_EXACT_ARGS": on(V312_UP, "CALL_PY_EXACT_ARGS", note=UNBOUND),
    "CALL_BUILTIN_CLASS": on(V312_UP, "CALL_BUILTIN_CLASS"),
    "CALL_BUILTIN_FAST_WITH_KEYWORDS": on(V312_UP, "CALL_BUILTIN_FAST_WITH_KEYWORDS"),
    "CALL_METHOD_DESCRIPTOR_FAST_WITH_KEYWORDS": on(
        V312_UP, "CALL_METHOD_DESCRIPTOR_FAST_WITH_KEYWORDS"),
    "CALL_NO_KW_BUILTIN_FAST": on((V312,), "CALL_BUILTIN_FAST"),
    "CALL_NO_KW_BUILTIN_O": on((V312,), "CALL_BUILTIN_O"),
    "CALL_NO_KW_ISINSTANCE": on((V312,), "CALL_ISINSTANCE"),
    "CALL_NO_KW_LEN": on((V312,), "CALL_LEN"),
    "CALL_NO_KW_LIST_APPEND": on((V312,), "CALL_LIST_APPEND"),
    "CALL_NO_KW_METHOD_DESCRIPTOR_FAST": on((V312,), "CALL_METHOD_DESCRIPTOR_FAST"),
    "CALL_NO_KW_METHOD_DESCRIPTOR_NOARGS": on((V312,), "CALL_METHOD_DESCRIPTOR_NOARGS"),
    "CALL_NO_KW_METHOD_DESCRIPTOR_O": on((V312,), "CALL_METHOD_DESCRIPTOR_O"),
    "CALL_NO_KW_STR_1": on((V312,), "CALL_STR_1"),
    "CALL_NO_KW_TUPLE_1": on((V312,), "CALL_TUPLE_1"),
    "CALL_NO_KW_TYPE_1": on((V312,), "CALL_TYPE_1"),
    "CALL_BUILTIN_FAST": on((V313,), "CALL_BUILTIN_FAST"),
    "CALL_BUILTIN_O": on((V313,), "CALL_BUILTIN_O"),
    "CALL_ISINSTANCE": on((V313,), "CALL_ISINSTANCE"),
    "CALL_LEN": on((V313,), "CALL_LEN"),
    "CALL_LIST_APPEND": on((V313,), "CALL_LIST_APPEND"),
    "CALL_METHOD_DESCRIPTOR_FAST": on((V313,), "CALL_METHOD_DESCRIPTOR_FAST"),
    "CALL_METHOD_DESCRIPTOR_NOARGS": on((V313,), "CALL_METHOD_DESCRIPTOR_NOARGS"),
    "CALL_METHOD_DESCRIPTOR_O": on((V313,), "CALL_METHOD_DESCRIPTOR_O"),
    "CALL_STR_1": on((V313,), "CALL_STR_1"),
    "CALL_TUPLE_1": on((V313,), "CALL_TUPLE_1"),
    "CALL_TYPE_1": on((V313,), "CALL_TYPE_1"),
    "CALL_ALLOC_AND_ENTER_INIT": on((V313,), "CALL_PY_CLASS"),
    "CALL_PY_GENERAL": on((V313,), "CALL_PY_WITH_DEFAULTS", "CALL_PY_VARARGS", note=GENERAL),
    "CALL_BOUND_METHOD_GENERAL": on((V313,), "CALL_PY_WITH_DEFAULTS", "CALL_PY_VARARGS",
                                    note=GENERAL + "; " + UNBOUND),
    "CALL_NON_PY_GENERAL": on((V313,), "CALL_NON_PY_GENERAL"),
    # ---- iteration ----
    "FOR_ITER_LIST": on(V312_UP, "FOR_ITER_LIST"),
    "FOR_ITER_TUPLE": on(V312_UP, "FOR_ITER_TUPLE"),
    "FOR_ITER_RANGE": on(V312_UP, "FOR_ITER_RANGE"),
    "FOR_ITER_GEN": on(V312_UP, "FOR_ITER_GEN"),
    "SEND_GEN": on(V312_UP, "SEND_GEN"),
    # ---- superinstructions and quickened instructions ----
    "LOAD_FAST__LOAD_FAST": on((V311, V312), "LOAD_FAST__LOAD_FAST"),
    "LOAD_FAST__LOAD_CONST": on((V311, V312), "LOAD_FAST__LOAD_CONST"),
    "LOAD_CONST__LOAD_FAST": on((V311, V312), "LOAD_CONST__LOAD_FAST"),
    "STORE_FAST__LOAD_FAST": on((V311, V312), "STORE_FAST__LOAD_FAST"),
    "STORE_FAST__STORE_FAST": on((V311, V312), "STORE_FAST__STORE_FAST"),
    "EXTENDED_ARG_QUICK": on((V311,), MISSING(
        "none needed: the decoder folds EXTENDED_ARG into the oparg of pyadapt's word")),
    "JUMP_BACKWARD_QUICK": on((V311,), MISSING(NO_QUICK.format(
        "JUMP", "a backward jump checks the eval breaker"))),
    "RESUME_QUICK": on((V311,), MISSING(RESUME)),
    "RESUME_CHECK": on((V313,), MISSING(RESUME)),
}


def table(version):
    """The table for one version: native form -> Entry."""
    return {name: e for name, e in NATIVE_FORMS.items() if version in e.versions}


def native_forms():
    return {form for forms in opcode._specializations.values() for form in forms}


def test_table_lists_exactly_the_running_interpreters_forms():
    listed = set(table(VERSION))
    native = native_forms()
    assert not native - listed, f"native forms not in NATIVE_FORMS: {sorted(native - listed)}"
    assert not listed - native, f"listed for {VERSION}, not native: {sorted(listed - native)}"


def test_every_entry_names_pyadapt_forms_or_says_why_not():
    for name, e in NATIVE_FORMS.items():
        assert e.versions and set(e.versions) <= set(VERSIONS), name
        assert e.forms or e.note, f"{name}: MISSING needs a reason"
        for form in e.forms:
            assert form in OPS, f"{name}: {form} is not a pyadapt instruction"
            info = OPS[form]
            # an adaptive or specialized form of a family, or a superinstruction: a generic
            # instruction is no counterpart
            assert info.family != info.name or info.flags & lib.PA_F_SUPER, (
                f"{name}: {form} is a generic instruction")


# ---- the docs show the same table ----

DOCS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs",
                    "architecture.md")
DOCS_SECTION = "### Native specialized forms and their pyadapt counterparts"


def docs_tables():
    """{version: {native form: (pyadapt forms, or () for none)}} from docs/architecture.md."""
    with open(DOCS, encoding="utf-8") as f:
        text = f.read()
    start = text.index(DOCS_SECTION)
    end = text.index("\n## ", start)
    tables, current = {}, None
    for line in text[start:end].splitlines():
        heading = re.match(r"#### CPython 3\.(\d+)", line)
        if heading:
            current = tables.setdefault((3, int(heading.group(1))), {})
        row = re.match(r"\| `(\w+)` \| ([^|]*) \|", line)
        if row and current is not None:
            assert row.group(1) not in current, f"{row.group(1)} twice in the docs"
            current[row.group(1)] = tuple(re.findall(r"`(\w+)`", row.group(2)))
    return tables, text[start:end]


def test_docs_show_the_table():
    tables, section = docs_tables()
    for version in VERSIONS:
        want = {name: e.forms for name, e in table(version).items()}
        assert tables.get(version) == want, f"docs' table for {version} differs"
        covered = sum(1 for forms in want.values() if forms)
        count = (f"{len(want)} native forms, {covered} with a counterpart, "
                 f"{len(want) - covered} missing")
        assert count in section, f"docs' count line for {version}: {count}"


# ---- the counterparts run: a differential program per form, and the form's hits ----
# Mostly tests/test_specializer.py's programs (one per family's forms); a few of our own where
# the native form's case is not theirs (bound methods, super(), *args).

class Base:
    kind = "base"

    def who(self):
        return "base"

    @classmethod
    def make(cls):
        return cls.__name__


class Derived(Base):
    def who(self):
        return "derived/" + super().who() + super().kind

    @classmethod
    def base_kind(cls):
        return super().kind + super().make()


class Scaler:
    def scaled(self, w, h=2):
        return w * h


def star_args(*args):
    return len(args)


def bound_method_call(n):
    m, t = Plain(4).method, 0
    for _ in range(n):
        t += m()
    return t


def bound_method_defaults(n):
    m, t = Scaler().scaled, 0
    for i in range(n):
        t += m(i)
    return t


def varargs_call(n):
    t = 0
    for i in range(n):
        t += star_args(i, i)
    return t


def keyword_only(a, b=1, *, scale=2, offset=0):
    return (a + b) * scale + offset


def keyword_only_call(n):
    t = 0
    for i in range(n):
        t += keyword_only(i) + keyword_only(i, i)
    return t


def super_instance(n):
    d = Derived()
    return [d.who() for _ in range(n)]


def super_class_attr(n):
    return [Derived.base_kind() for _ in range(n)]


class _Callable:
    def __call__(self, x, y=0):
        return x + y


class _OwnNew:
    def __new__(cls, x, y=0):
        return x - y


def calls_non_python(n):
    # callables no other form takes: an object with __call__, a class with its own __new__,
    # a functools.partial, a call with keywords of each
    import functools
    part = functools.partial(pow, 2)
    t = 0
    for c in (_Callable(), _OwnNew, part):
        for i in range(n):
            t += c(i) + c(i, y=1) if c is not part else c(i % 5)
    return t


def compare_values(n):
    out = []
    for i in range(n):
        f, s = i * 0.5, str(i)
        out.append((f < 1.5, s == "3"))
    return out


# (native forms the program exercises, on whichever version has one of them; the pyadapt
# form that must run; the program)
Case = collections.namedtuple("Case", "natives form func")
CASES = [
    Case(("LOAD_ATTR_INSTANCE_VALUE",), "LOAD_ATTR_INSTANCE_VALUE", f_load_attr_instance_value),
    Case(("LOAD_ATTR_WITH_HINT",), "LOAD_ATTR_WITH_HINT", f_load_attr_with_hint),
    Case(("LOAD_ATTR_SLOT",), "LOAD_ATTR_SLOT", f_load_attr_slot),
    Case(("LOAD_ATTR_MODULE",), "LOAD_ATTR_MODULE", f_load_attr_module),
    Case(("LOAD_ATTR_CLASS",), "LOAD_ATTR_CLASS", f_load_attr_class),
    Case(("LOAD_ATTR_PROPERTY",), "LOAD_ATTR_PROPERTY", f_load_attr_property),
    Case(("LOAD_ATTR_NONDESCRIPTOR_WITH_VALUES",), "LOAD_ATTR_NONDESCRIPTOR_WITH_VALUES",
         f_load_attr_nondescriptor),
    Case(("LOAD_ATTR_NONDESCRIPTOR_NO_DICT",), "LOAD_ATTR_NONDESCRIPTOR_NO_DICT",
         f_load_attr_nondescriptor_no_dict),
    Case(("LOAD_METHOD_WITH_VALUES", "LOAD_ATTR_METHOD_WITH_VALUES"), "LOAD_METHOD_WITH_VALUES",
         f_load_method_with_values),
    Case(("LOAD_METHOD_NO_DICT", "LOAD_ATTR_METHOD_NO_DICT"), "LOAD_METHOD_NO_DICT",
         f_load_method_no_dict),
    Case(("LOAD_ATTR_METHOD_LAZY_DICT",), "LOAD_METHOD_LAZY_DICT", f_load_method_lazy_dict),
    Case(("LOAD_METHOD_WITH_DICT",), "LOAD_METHOD_WITH_DICT", f_load_method_with_dict),
    Case(("LOAD_SUPER_ATTR_METHOD",), "LOAD_SUPER_METHOD_INSTANCE", super_instance),
    Case(("LOAD_SUPER_ATTR_ATTR",), "LOAD_SUPER_ATTR_INSTANCE", super_instance),
    Case(("LOAD_SUPER_ATTR_ATTR",), "LOAD_SUPER_ATTR_CLASS", super_class_attr),
    Case(("LOAD_SUPER_ATTR_METHOD",), "LOAD_SUPER_METHOD_CLASS", super_class_attr),
    Case(("LOAD_GLOBAL_MODULE",), "LOAD_GLOBAL_MODULE", f_load_global_module),
    Case(("LOAD_GLOBAL_BUILTIN",), "LOAD_GLOBAL_BUILTIN", f_load_global_builtin),
    Case(("BINARY_OP_ADD_INT",), "BINARY_OP_ADD_INT", f_binary_int),
    Case(("BINARY_OP_MULTIPLY_FLOAT",), "BINARY_OP_MULTIPLY_FLOAT", f_binary_float),
    Case(("BINARY_OP_INPLACE_ADD_UNICODE",), "BINARY_OP_INPLACE_ADD_UNICODE", f_binary_str),
    Case(("COMPARE_OP_INT_JUMP", "COMPARE_OP_INT"), "COMPARE_OP_INT_JUMP", f_compare_jump),
    Case(("COMPARE_OP_STR_JUMP", "COMPARE_OP_STR"), "COMPARE_OP_STR_JUMP", f_compare_jump),
    Case(("COMPARE_OP_FLOAT",), "COMPARE_OP_FLOAT", compare_values),
    Case(("COMPARE_OP_STR",), "COMPARE_OP_STR", compare_values),
    Case(("CONTAINS_OP_DICT",), "CONTAINS_OP_DICT", f_contains),
    Case(("CONTAINS_OP_SET",), "CONTAINS_OP_SET", f_contains),
    Case(("TO_BOOL_BOOL",), "TO_BOOL_BOOL", tobool.bools),
    Case(("TO_BOOL_INT",), "TO_BOOL_INT", tobool.ints),
    Case(("TO_BOOL_LIST",), "TO_BOOL_LIST", tobool.lists),
    Case(("TO_BOOL_NONE",), "TO_BOOL_NONE", tobool.nones),
    Case(("TO_BOOL_STR",), "TO_BOOL_STR", tobool.strs),
    Case(("TO_BOOL_ALWAYS_TRUE",), "TO_BOOL_ALWAYS_TRUE", tobool.instances),
    Case(("CALL_PY_EXACT_ARGS",), "CALL_PY_EXACT_ARGS", f_calls_python),
    Case(("CALL_PY_WITH_DEFAULTS", "CALL_PY_GENERAL"), "CALL_PY_WITH_DEFAULTS", f_calls_python),
    Case(("CALL_ALLOC_AND_ENTER_INIT",), "CALL_PY_CLASS", f_calls_python),
    Case(("PRECALL_BOUND_METHOD", "CALL_BOUND_METHOD_EXACT_ARGS"), "CALL_PY_EXACT_ARGS",
         bound_method_call),
    Case(("CALL_BOUND_METHOD_GENERAL",), "CALL_PY_WITH_DEFAULTS", bound_method_defaults),
    Case(("PRECALL_PYFUNC",), "CALL_PY_VARARGS", varargs_call),
    Case(("CALL_PY_GENERAL",), "CALL_PY_VARARGS", varargs_call),
    Case(("CALL_PY_GENERAL",), "CALL_PY_VARARGS", keyword_only_call),
    Case(("PRECALL_NO_KW_LEN", "CALL_NO_KW_LEN", "CALL_LEN"), "CALL_LEN", f_calls_builtin),
    Case(("PRECALL_NO_KW_LIST_APPEND", "CALL_NO_KW_LIST_APPEND", "CALL_LIST_APPEND"),
         "CALL_LIST_APPEND", f_calls_builtin),
    Case(("PRECALL_NO_KW_METHOD_DESCRIPTOR_NOARGS", "CALL_NO_KW_METHOD_DESCRIPTOR_NOARGS",
          "CALL_METHOD_DESCRIPTOR_NOARGS"), "CALL_METHOD_DESCRIPTOR_NOARGS",
         f_calls_method_descriptors),
    Case(("CALL_NON_PY_GENERAL",), "CALL_NON_PY_GENERAL", calls_non_python),
    Case(("FOR_ITER_LIST",), "FOR_ITER_LIST", f_for_iter),
    Case(("FOR_ITER_RANGE",), "FOR_ITER_RANGE", f_for_iter),
    Case(("FOR_ITER_GEN",), "FOR_ITER_GEN", f_for_iter),
    Case(("SEND_GEN",), "SEND_GEN", f_for_iter),
    Case(("BINARY_SUBSCR_LIST_INT",), "BINARY_SUBSCR_LIST_INT", f_subscr),
    Case(("BINARY_SUBSCR_GETITEM",), "BINARY_SUBSCR_GETITEM", f_subscr),
    Case(("BINARY_SUBSCR_STR_INT",), "BINARY_SUBSCR_STR_INT", f_subscr_str),
    Case(("STORE_SUBSCR_DICT",), "STORE_SUBSCR_DICT", f_store_subscr),
    Case(("STORE_ATTR_INSTANCE_VALUE",), "STORE_ATTR_INSTANCE_VALUE",
         f_store_attr_instance_value),
    Case(("STORE_ATTR_SLOT",), "STORE_ATTR_SLOT", f_store_attr_slot),
    Case(("UNPACK_SEQUENCE_TWO_TUPLE",), "UNPACK_SEQUENCE_TWO_TUPLE", f_unpack),
    Case(("UNPACK_SEQUENCE_LIST",), "UNPACK_SEQUENCE_LIST", f_unpack),
]


def native_of(case):
    """The case's native form on the running version, or None."""
    here = [name for name in case.natives if name in native_forms()]
    assert len(here) <= 1, case
    return here[0] if here else None


def test_cases_spread_over_the_families():
    ran = [case for case in CASES if native_of(case) is not None]
    families = {OPS[case.form].family for case in ran}
    want = {"LOAD_ATTR", "LOAD_GLOBAL", "BINARY_OP", "COMPARE_OP", "CALL", "BINARY_SUBSCR",
            "STORE_ATTR", "UNPACK_SEQUENCE"}
    if VERSION >= V312:
        want.add("FOR_ITER")            # 3.11 has no FOR_ITER forms of its own
    assert len(ran) >= 8
    assert want <= families, sorted(want - families)


@pytest.mark.parametrize("case", CASES, ids=[f"{c.natives[-1]}-{c.form}" for c in CASES])
def test_counterpart_runs(case):
    native = native_of(case)
    if native is None:
        pytest.skip(f"none of {case.natives} on {VERSION}")
    assert case.form in table(VERSION)[native].forms, (
        f"{native}: the table does not name {case.form}")
    expected = check(case.func, (7,))
    pyadapt.configure(specialize=True, warmup=2)
    try:
        pyadapt.reset_stats()
        for _ in range(3):
            assert pyadapt.run(case.func, 7) == expected
        hits = pyadapt.stats()["specialized"][case.form]["hits"]
    finally:
        pyadapt.configure(**DEFAULT_CONFIG)
    assert hits > 0, f"{case.form} did not run for {native}"


def test_every_named_form_runs_on_this_version():
    """Beyond the cases: each specialized form the table names for this version runs in one
    of tests/test_specializer.py's programs or ours (those compare with native results in
    their own tests).  Adaptive forms and superinstructions count no hits."""
    programs = list(dict.fromkeys([*SPECIALIZER_CASES, *(case.func for case in CASES)]))
    ran = set()
    pyadapt.configure(specialize=True, warmup=2)
    try:
        for func in programs:
            pyadapt.reset_stats()
            for _ in range(3):
                pyadapt.run(func, 20)
            ran |= {form for form, s in pyadapt.stats()["specialized"].items() if s["hits"]}
    finally:
        pyadapt.configure(**DEFAULT_CONFIG)
    quiet = lib.PA_F_ADAPTIVE | lib.PA_F_SUPER
    named = {form for e in table(VERSION).values() for form in e.forms
             if not OPS[form].flags & quiet}
    assert not named - ran, f"named for {VERSION}, never ran: {sorted(named - ran)}"
