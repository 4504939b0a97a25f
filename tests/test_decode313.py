"""pyadapt's decoder of CPython 3.13 (pyadapt/_decode313.py), tested from any version.

Its rows are data built from 3.13's ``opcode`` module, so these tests, which run on any
supported version (on 3.13 itself tests/test_opcodes.py checks the rows natively too), capture 3.13's own tables, ``dis.stack_effect`` and the bytecode of a few of its
stdlib modules by running pyenv's 3.13.0 in a subprocess (skipped where it is not
installed), build the decoder from them here, and check (1) every 3.13 opcode that lowers to
a pyadapt row has that row's stack effect, and (2) walking every code object of those
modules with the 3.13 table meets no opcode it cannot lower but the ones ``UNLOWERED`` names.
"""
import json
import subprocess
import types

import pytest

from pyadapt import _decode313
from pyadapt._compiler import OPNAMES, OPS
from pyadapt._pyadapt import lib

from test_versions import _pyenv_python

MODULES = ["json.decoder", "json.encoder", "textwrap", "string", "fnmatch", "heapq",
           "bisect", "colorsys", "shlex", "argparse", "dataclasses", "asyncio.tasks"]

# Runs under 3.13: its opcode tables, stack effects for sample opargs, and the code units of
# every code object of MODULES (compiled from their source by 3.13 itself).
_CAPTURE = r"""
import dis, importlib.util, json, opcode, sys
samples = [0, 1, 2, 3, 4, 5, 8, 16, 17, 32, 0x21, 0x102, 7, 300]
effects = {}
for name, op in opcode.opmap.items():
    if op >= 256:
        continue
    rows = []
    for arg in (samples if op >= opcode.HAVE_ARGUMENT else [None]):
        for jump in (False, True):
            try:
                e = dis.stack_effect(op, arg, jump=jump) if arg is not None else dis.stack_effect(op, jump=jump)
            except ValueError:
                continue
            rows.append([arg or 0, jump, e])
    effects[name] = rows
codes = {}
for mod in sys.argv[1:]:
    path = importlib.util.find_spec(mod).origin
    with open(path, "rb") as f:
        top = compile(f.read(), path, "exec")
    out, todo = [], [top]
    while todo:
        co = todo.pop()
        out.append([co.co_qualname, co.co_code.hex()])
        todo.extend(c for c in co.co_consts if hasattr(c, "co_code"))
    codes[mod] = out
print(json.dumps({
    "version": list(sys.version_info[:3]),
    "opname": opcode.opname[:256], "opmap": opcode.opmap, "hasjrel": opcode.hasjrel,
    "HAVE_ARGUMENT": opcode.HAVE_ARGUMENT,
    "_inline_cache_entries": opcode._inline_cache_entries,
    "effects": effects, "codes": codes}))
"""


@pytest.fixture(scope="module")
def py313():
    python = _pyenv_python("3.13.0")
    if python is None:
        pytest.skip("pyenv's CPython 3.13.0 is not installed here")
    proc = subprocess.run([python, "-c", _CAPTURE] + MODULES, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["version"] == [3, 13, 0]
    return data


@pytest.fixture(scope="module")
def table(py313):
    """3.13 opcode -> decoder row (op, kind, pa_op, ncache, jump, alt_op, arg_shift,
    jump_extra, arg_limit), built from 3.13's captured tables."""
    cpy = types.SimpleNamespace(**{k: py313[k] for k in (
        "opname", "opmap", "hasjrel", "HAVE_ARGUMENT", "_inline_cache_entries")})
    return {row[0]: row for row in _decode313.entries(OPS, lib, cpy_opcode=cpy)}


def _effect(py313, name, arg, jump):
    for a, j, e in py313["effects"][name]:
        if a == arg and j == jump:
            return e
    return None


def test_lowered_rows_have_313s_stack_effects(py313, table):
    opname, opmap = py313["opname"], py313["opmap"]
    checked = set()
    for op, kind, pa_op, _ncache, jump, alt_op, shift, extra, _limit in table.values():
        if kind != lib.PA_DK_OP:
            continue
        name = opname[op]
        for arg, j, want in py313["effects"][name]:
            if j and not jump:
                continue                # only a jump's taken branch differs
            pa = OPS[OPNAMES[alt_op if alt_op and arg & 1 else pa_op]]
            if j and extra:
                # the target is past `extra` units: what those instructions do is the jump's
                following = {("FOR_ITER", 2): ["END_FOR", "POP_TOP"], ("SEND", 1): ["END_SEND"]}
                want += sum(_effect(py313, f, 0, False) for f in following[(name, extra)])
            got = pa.stack_effect(arg >> shift if shift else (arg >> 1 if alt_op else arg), j)
            if name == "MAKE_FUNCTION":
                got = pa.stack_effect(0, j)     # 3.13's takes no oparg: pyadapt's with 0
            if name == "RETURN_GENERATOR":
                # 3.13 counts the value the generator's first send pushes (which the POP_TOP
                # after it pops, on every version); 3.11 and pyadapt count it nowhere
                want -= 1
            assert got == want, (name, pa.name, arg, j, got, want)
        checked.add(name)
    # the rows 3.13's new instructions lower to, among others
    assert {"TO_BOOL", "CONVERT_VALUE", "FORMAT_SIMPLE", "FORMAT_WITH_SPEC",
            "SET_FUNCTION_ATTRIBUTE", "END_FOR", "COMPARE_OP", "LOAD_ATTR", "CALL",
            "CALL_FUNCTION_EX", "CALL_KW"} <= checked


def test_unlowered_instructions_have_no_row(py313, table):
    opmap = py313["opmap"]
    for name in _decode313.UNLOWERED:
        assert table[opmap[name]][1] == lib.PA_DK_UNKNOWN, name


def _unknown_in(code_hex, table, opname):
    """Names of the opcodes of one code object the table cannot lower."""
    units = bytes.fromhex(code_hex)
    out, i = set(), 0
    while i < len(units):
        op = units[i]
        kind, ncache = table[op][1], table[op][3]
        if kind == lib.PA_DK_UNKNOWN:
            out.add(opname[op])
        i += 2 * (1 + (ncache if kind != lib.PA_DK_CACHE else 0))
    return out


def test_stdlib_modules_decode_with_only_the_unlowered_unknown(py313, table):
    opname = py313["opname"]
    fully, met = [], set()
    for mod, codes in py313["codes"].items():
        unknown = set()
        for _qualname, code_hex in codes:
            unknown |= _unknown_in(code_hex, table, opname)
        assert unknown <= _decode313.UNLOWERED, (mod, unknown - _decode313.UNLOWERED)
        met |= unknown
        if not unknown:
            fully.append(mod)
    # 3.13's calls lower, keyword calls included: every module decodes whole
    assert not met and len(fully) == len(py313["codes"])
    print("3.13 modules decoded fully:", fully)
