"""pyadapt.dis and pyadapt.get_instructions against the standard dis.

Differential where the two can be compared: for every input dis.dis takes, pyadapt.dis prints
the same "Disassembly of ..." / "Sorry:" headers in the same order, the same code objects, and
for each instruction the CPython offset dis.dis shows; for every input it refuses, the same
TypeError.  What only pyadapt has (its live forms, decoded caches) is proven through
get_instructions.
"""
import asyncio
import contextlib
import dis
import inspect
import io
import json
import opcode
import re
import sys
import types
from pathlib import Path

import pytest

import pyadapt
from pyadapt import _introspect

ROOT = Path(__file__).resolve().parent.parent

# A pyadapt row: pyadapt offset, [CPython offset], name.  A dis row: offset, name.
PA_ROW = re.compile(r"(\d+) \[\s*(\d+)\] ([A-Z][A-Z0-9_]*)")
DIS_ROW = re.compile(r"(\d+) +([A-Z][A-Z0-9_]*)(?=\s|$)")   # 3.13 pads, and has labels "L1:"
ADDRESS = re.compile(r" at 0x[0-9a-f]+")
# CPython instructions pyadapt's compiler folds into its own words: 24-bit opargs, CALL
# taking PRECALL's place.
FOLDED = {"EXTENDED_ARG", "CACHE", "PRECALL"}
BASE = {form: family for family, forms in opcode._specializations.items() for form in forms}


def pa_text(x, **kw):
    buf = io.StringIO()
    pyadapt.dis(x, file=buf, **kw)
    return buf.getvalue()


def dis_text(x, **kw):
    # offsets, which the comparison goes by (3.13's dis leaves them out unless asked)
    if "show_offsets" in inspect.signature(dis.dis).parameters:
        kw.setdefault("show_offsets", True)
    buf = io.StringIO()
    dis.dis(x, file=buf, **kw)
    return buf.getvalue()


def sections(text, row):
    """[(header, [(cpython offset, opname), ...])] in order; the first header is None."""
    out = [(None, [])]
    in_table = False
    for line in text.splitlines():
        if line.startswith(("Disassembly of", "Sorry:")):
            out.append((ADDRESS.sub("", line), []))
            in_table = False
        elif line.startswith("ExceptionTable:"):
            in_table = True
        elif line.strip() and not in_table and "CACHE" not in line:
            m = row.search(line)
            assert m, line
            if row is PA_ROW:
                out[-1][1].append((int(m.group(2)), m.group(3)))
            else:
                out[-1][1].append((int(m.group(1)), m.group(2)))
    return out


def assert_same_structure(x, **kw):
    """Same headers and, per code object, pyadapt's instructions at dis.dis's offsets."""
    mine = sections(pa_text(x, **kw), PA_ROW)
    theirs = sections(dis_text(x, **kw), DIS_ROW)
    assert [h for h, _ in mine] == [h for h, _ in theirs]
    for (header, rows), (_, native) in zip(mine, theirs):
        native_offsets = {off for off, name in native}
        offsets = [off for off, _ in rows]
        assert offsets == sorted(offsets), header
        assert set(offsets) <= native_offsets, (header, set(offsets) - native_offsets)
        missing = {BASE.get(name, name) for off, name in native if off not in set(offsets)}
        assert missing <= FOLDED, (header, missing)
    return mine


# ---- inputs ----

def plain(a, b=2):
    c = a + b
    for i in range(c):
        if i % 3 == 0:
            c += i
    return [x * 2 for x in range(c)]


class Shape:
    count = 3

    def __init__(self, w, h):
        self.w = w
        self.h = h

    def area(self):
        return self.w * self.h

    @property
    def double(self):
        return 2 * self.area()

    @staticmethod
    def unit():
        return Shape(1, 1)

    @classmethod
    def square(cls, s):
        return cls(s, s)

    class Inner:
        def hello(self):
            return "hi"

    lam = lambda self: self.w  # noqa: E731


def gen(n):
    yield from range(n)


async def coro():
    await asyncio.sleep(0)
    return 1


async def agen():
    yield 1


MODULE_SOURCE = """
import os
from collections import OrderedDict

CONST = 1

def f(x):
    return x + CONST

class K:
    def m(self):
        return [f(i) for i in range(3)]
"""


def make_module():
    mod = types.ModuleType("dis_sample")
    exec(compile(MODULE_SOURCE, "dis_sample.py", "exec"), mod.__dict__)
    return mod


@pytest.mark.parametrize("make", [
    lambda: plain, lambda: Shape, lambda: Shape.area, lambda: Shape(1, 2).area,
    lambda: Shape.unit, lambda: Shape.square, lambda: Shape.__dict__["square"],
    lambda: Shape.Inner, lambda: plain.__code__, lambda: make_module(), lambda: json,
    lambda: "x = 1", lambda: "a + b * 2", lambda: "def g():\n    return [i for i in ()]\n",
    lambda: Shape(1, 2).lam, lambda: gen(3),
], ids=["function", "class", "function-in-class", "bound-method", "staticmethod",
        "classmethod", "classmethod-object", "nested-class", "code", "module", "package",
        "statement", "expression", "source-with-nested-code", "lambda", "generator"])
def test_same_structure_as_dis(make):
    assert_same_structure(make())


def test_class_and_module_headers():
    mine = [h for h, _ in assert_same_structure(Shape)]
    assert "Disassembly of __init__:" in mine and "Disassembly of Inner:" in mine
    assert "Disassembly of hello:" in mine
    assert "Disassembly of double:" not in mine          # dis skips properties, as pyadapt
    mine = [h for h, _ in assert_same_structure(make_module())]
    assert "Disassembly of f:" in mine and "Disassembly of K:" in mine
    assert "Disassembly of OrderedDict:" in mine        # a class in the module's namespace


def test_coroutines_and_async_generators():
    c = coro()
    try:
        assert_same_structure(c)
        assert pyadapt.get_instructions(c) == pyadapt.get_instructions(coro)
    finally:
        c.close()
    a = agen()
    assert_same_structure(a)
    assert [i.cpy_offset for i in pyadapt.get_instructions(a, adaptive=False)] == \
        [i.offset for i in dis.get_instructions(agen) if i.opname not in FOLDED]


def test_depth_and_show_caches_keep_structure():
    assert_same_structure(plain, depth=0)
    assert_same_structure(Shape, show_caches=True)
    assert "Disassembly of" not in pa_text(plain, depth=0)


@pytest.mark.parametrize("obj", [42, len, [].append, list.append, property(lambda s: 1),
                                 1.5, object()],
                         ids=["int", "builtin", "builtin-method", "method-descriptor",
                              "property", "float", "object"])
def test_type_errors_as_dis(obj):
    assert_same_type_error(dis_text, pa_text, obj)
    assert_same_type_error(dis.get_instructions, pyadapt.get_instructions, obj)


def assert_same_type_error(native, mine, obj):
    with pytest.raises(TypeError) as expected:
        native(obj)
    with pytest.raises(TypeError) as got:
        mine(obj)
    assert str(got.value) == str(expected.value)


def test_object_with_a_dict_shows_its_code_attributes_as_dis():
    """dis.dis of an instance walks its __dict__ as for a class: here nothing, then a
    function stored on it."""
    s = Shape(1, 2)
    assert pa_text(s) == dis_text(s) == ""
    s.fn = plain
    assert [h for h, _ in assert_same_structure(s)][:2] == [None, "Disassembly of fn:"]
    assert pa_text(type(None)) == dis_text(type(None))


def test_builtin_message():
    with pytest.raises(TypeError, match="don't know how to disassemble "
                                        "builtin_function_or_method objects"):
        pyadapt.dis(len)
    with pytest.raises(TypeError, match="don't know how to disassemble int objects"):
        pyadapt.dis(42)


def test_raw_bytecode_is_refused():
    with pytest.raises(TypeError, match="raw bytecode"):
        pa_text(plain.__code__.co_code)


def test_get_instructions_takes_what_dis_get_instructions_takes():
    for obj in (plain, Shape.area, Shape(1, 2).area, plain.__code__, "a + b", gen(2)):
        native = [i.offset for i in dis.get_instructions(obj) if i.opname not in FOLDED]
        mine = [i.cpy_offset for i in pyadapt.get_instructions(obj, adaptive=False)]
        assert mine == native, obj
    assert_same_type_error(dis.get_instructions, pyadapt.get_instructions, Shape)


def test_jump_targets_name_both_offsets():
    for ins in pyadapt.get_instructions(plain, adaptive=False):
        if ins.argrepr.startswith("to "):
            target = [t for t in pyadapt.get_instructions(plain, adaptive=False)
                      if t.offset == ins.argval]
            assert target and target[0].is_jump_target
            assert ins.argrepr == "to %d [%d]" % (target[0].offset, target[0].cpy_offset)


# ---- the default is the generic form; adaptive=True the live one ----

def add_loop(n):
    t = 0
    for i in range(n):
        t = t + i
    return t


def test_default_is_generic_adaptive_is_live():
    pyadapt.configure(specialize=True, warmup=2)
    assert pyadapt.run(add_loop, 100) == add_loop(100)
    live = pyadapt.get_instructions(add_loop, adaptive=True)
    assert "BINARY_OP_ADD_INT" in [i.opname for i in live]
    generic = pa_text(add_loop)
    assert "BINARY_OP_ADD_INT" not in generic and "BINARY_OP" in generic
    assert "BINARY_OP_ADD_INT" in pa_text(add_loop, adaptive=True)
    assert_same_structure(add_loop, adaptive=True)       # also specialized: same offsets
    assert_same_structure(add_loop)


# ---- cached pointers: one value, named ----

class Body:
    kind = "body"

    def __init__(self, x):
        self.x = x

    def moved(self):
        return self.x + 1

    @property
    def twice(self):
        return self.x * 2


def use_body(n):
    t = 0
    for i in range(n):
        b = Body(i)
        t += b.moved() + b.twice + b.x + len(Body.kind)
    return t


def test_cached_pointers_print_as_one_decoded_value():
    pyadapt.configure(specialize=True, warmup=2)
    assert pyadapt.run(use_body, 50) == use_body(50)
    forms = {i.opname for i in pyadapt.get_instructions(use_body)}
    for form in ("CALL_PY_CLASS", "LOAD_METHOD_WITH_VALUES", "LOAD_ATTR_PROPERTY",
                 "LOAD_ATTR_INSTANCE_VALUE", "LOAD_ATTR_CLASS"):
        assert form in forms, forms
    text = pa_text(use_body, adaptive=True, show_caches=True)
    assert re.search(r"CACHE\s+init=0x[0-9a-f]+ \(function Body.__init__\)", text), text
    assert re.search(r"CACHE\s+descr=0x[0-9a-f]+ \(function Body.moved\)", text), text
    assert re.search(r"CACHE\s+descr=0x[0-9a-f]+ \(property Body.twice\)", text), text
    assert re.search(r"CACHE\s+descr=0x[0-9a-f]+ \(Body.kind = 'body'\)", text), text
    # one value for every CALL form that holds a pointer; CALL_PY_EXACT_ARGS's init_lo and
    # init_hi (with min_args) are three more function versions, not a pointer
    rows = text.splitlines()
    assert all("(function version" in line for line in rows
               if "init_lo=" in line or "init_hi=" in line), text
    at = next(k for k, line in enumerate(rows) if "CALL_PY_EXACT_ARGS" in line)
    assert any(re.search(r"min_args=\d+ \(function version 2, free", line)
               for line in rows[at + 1:at + 7]), rows[at:at + 7]
    # LOAD_ATTR_INSTANCE_VALUE: descr_lo/descr_hi are type slots, not a pointer
    rows = text.splitlines()
    at = next(k for k, line in enumerate(rows) if "LOAD_ATTR_INSTANCE_VALUE" in line)
    block = rows[at + 1:at + 7]
    assert any(re.search(r"descr_lo=0 \(type 2: free\)", line) for line in block), block
    assert any(re.search(r"descr_hi=0 \(type 3: free\)", line) for line in block), block
    # the values printed are the words of the cache
    ins = next(i for i in pyadapt.get_instructions(use_body) if i.opname == "CALL_PY_CLASS")
    caches = dict(ins.caches)
    assert "init=%#x" % (caches["init_hi"] << 32 | caches["init_lo"]) in text
    assert caches["init_hi"] << 32 | caches["init_lo"] == id(Body.__init__)


def test_pointer_forms_are_those_the_loop_reads_as_pointers():
    """_POINTER_FORMS lists exactly the handlers that read a cached object pointer."""
    source = (ROOT / "csrc" / "pa_eval.c").read_text()
    parts = re.split(r"\b(?:PURE_)?TARGET\(([A-Z][A-Z0-9_]*)\)", source)
    body = {parts[k]: parts[k + 1] for k in range(1, len(parts), 2)}
    readers = {op for op, text in body.items()
               if "PA_CACHED_PTR" in text or "pa_read_ptr(cache->" in text}
    assert readers == set(_introspect._POINTER_FORMS)
    assert not readers & set(_introspect._EXTRA_VERSIONS)
    # and the fields dis shows as something else than a cached object: the megamorphic forms'
    # own type slots and kept table entry, read by exactly the handlers named for them
    slot_readers = {op for op, text in body.items() if "pa_type_slot_find3(" in text}
    assert slot_readers == set(_introspect._MEMO_SLOTS)
    entry_readers = {op for op, text in body.items() if "PA_MEMO_ENTRY(" in text}
    assert entry_readers == set(_introspect._MEMO_ENTRY_FORMS)
    assert not (slot_readers | entry_readers) & (readers | set(_introspect._EXTRA_VERSIONS))


# ---- no argument: the last traceback ----

def fails(d):
    return d["missing"]


def test_last_traceback_marks_the_instruction():
    try:
        pyadapt.run(fails, {})
    except KeyError:
        tb = sys.exc_info()[2]
    saved = getattr(sys, "last_traceback", None)
    sys.last_traceback = tb
    try:
        mine, theirs = pa_text(None), dis_text(None)
    finally:
        if saved is None:
            del sys.last_traceback
        else:
            sys.last_traceback = saved
    mark = [line for line in mine.splitlines() if "-->" in line]
    native = [line for line in theirs.splitlines() if "-->" in line]
    assert len(mark) == 1 and len(native) == 1
    # 3.11 marks "-->  6 NAME", 3.13 "6  --> NAME"
    assert PA_ROW.search(mark[0]).group(2) == DIS_ROW.search(native[0].replace("-->", "")).group(1)
    assert "BINARY_SUBSCR" in mark[0]


def test_no_traceback_is_runtime_error():
    saved = getattr(sys, "last_traceback", None)
    if saved is not None:
        del sys.last_traceback
    try:
        with pytest.raises(RuntimeError, match="no last traceback"):
            pyadapt.dis()
    finally:
        if saved is not None:
            sys.last_traceback = saved


def test_stdout_default():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        pyadapt.dis("x = 1")
    assert "STORE_NAME" in out.getvalue() and "[" in out.getvalue()
