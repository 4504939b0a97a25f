#!/usr/bin/env python3
"""Differential fuzzer: random Python programs, run natively and under pyadapt, compared.

    python3 tools/fuzz.py --seed 1 --count 500            # 500 programs from seed 1
    python3 tools/fuzz.py --seed 7 --count 2000 -j 2       # two worker processes
    python3 tools/fuzz.py --seed 5 --count 300 --threads 3 # also in 3 threads sharing the units
    python3 tools/fuzz.py --seed 3 --count 500 --descriptors # + descriptors moved between classes
    python3 tools/fuzz.py --seed 4 --count 300 --signals   # + SIGALRM with a raising handler
    python3 tools/fuzz.py --show 1:17                      # print program 17 of seed 1
    python3 tools/fuzz.py --reduce fuzz-out/fuzz_1_17.py   # shrink a mismatching program

Each program is a module: classes that change shape while it runs (attributes added and
deleted, ``__class__`` reassigned, methods monkeypatched and deleted, properties, slots),
globals rebound (builtins like ``len`` and ``type`` shadowed and un-shadowed mid-loop, and with
``--builtins`` the ``builtins`` module itself patched; with ``--descriptors`` descriptors of every
kind -- slots, properties, classmethods, staticmethods, method descriptors, slot wrappers, getset
and C member descriptors, ``__getattribute__`` functions -- moved between unrelated classes
mid-loop, ``__getattribute__``/``__getattr__``/``__setattr__`` and an attribute's own class's
``__get__``/``__set__`` switched on and off every few iterations, ``__bases__`` swapped and
properties re-initialized in place), arithmetic on ints, floats and strings,
exceptions raised and caught, loops, calls, closures, comprehensions and generators.  Its
``main()`` catches every exception a statement raises and records its type and message.
Programs are deterministic and terminate (bounded loops, values clamped every iteration).

Every program runs natively once and then under pyadapt in adaptive mode with warmups 0, 2 and
50 and in generic mode: the module body under ``pyadapt.run(exec, ...)``, then ``main()``
three times under ``pyadapt.run``.  What is compared: each call's return value (repr, addresses
masked) or exception (type, message, traceback line numbers), and everything printed.  With
``--threads N``, each mode also runs one code object in N namespaces in N threads at once (shared
units and inline caches, separate classes and globals); each thread must return the native result.
With ``--signals``, each mode also runs the program from fresh code objects while SIGALRM fires
with a handler that raises (see ``signal_rounds``), then runs those code objects quietly.

Programs run in worker processes; a worker that crashes or hangs is restarted after the case
that killed it.  A mismatch, crash or hang writes the program to ``--out`` (default
``fuzz-out/``) as a standalone script in the format of ``tests/regressions/`` (run it with
``python3 FILE`` and ``python3 -m pyadapt FILE``); ``--reduce`` shrinks such a file while it still
mismatches.  Exit status 0 when nothing differed.
"""

import argparse
import builtins
import contextlib
import io
import json
import os
import random
import re
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# (name, env for a standalone run, configure kwargs for an in-process run)
MODES = {
    "w0": ({"PYADAPT_WARMUP": "0"}, {"specialize": True, "warmup": 0}),
    "w2": ({"PYADAPT_WARMUP": "2"}, {"specialize": True, "warmup": 2}),
    "w50": ({"PYADAPT_WARMUP": "50"}, {"specialize": True, "warmup": 50}),
    "generic": ({"PYADAPT_SPECIALIZE": "0"}, {"specialize": False}),
}
DEFAULT_MODES = ("w0", "w2", "w50", "generic")
CALLS = 3  # main() is called this many times per run (the later calls run specialized code)

KEY0, KEY1 = "'k0'", "'k1'"

# builtins a program may shadow (as globals) or patch (in the builtins module)
SHADOWABLE = ("len", "type", "abs", "str", "isinstance", "min", "int")

_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


# ------------------------------------------------------------------------------------------
# The generator


class Gen:
    """One random program from one seed."""

    INT_VARS = ("a", "b", "c")
    FLOAT_VARS = ("x", "y")
    STR_VARS = ("s", "t")
    LIST_VARS = ("L",)
    VARS = INT_VARS + FLOAT_VARS + STR_VARS + LIST_VARS + ("z",)
    OBJS = ("o0", "o1", "o2")
    # K1 subclasses K0; K2 has __slots__; K3 is unrelated; K4(K3) has __getattr__;
    # K5(K0) overrides __getattribute__
    CLASSES = ("K0", "K1", "K2", "K3", "K4", "K5")
    GLOBALS = ("g0", "g1", "g2")

    def __init__(self, seed, patch_builtins=False, size=1.0, descriptors=False):
        self.r = random.Random(seed)
        # whether a try statement is an except* one (and raises a G0 group) comes from a
        # stream of its own: the programs draw from self.r exactly what they drew before
        self.r_star = random.Random(f"{seed}/except*")
        self.patch_builtins = patch_builtins
        # descriptors=True: also move descriptors of every kind between classes mid-loop and
        # mutate classes (bases, __getattribute__/__getattr__/__setattr__, an attribute's own
        # class gaining __get__/__set__, properties re-initialized).  Off, the generator
        # draws exactly the numbers it drew before, so existing seeds keep their programs.
        self.descriptors = descriptors
        self.size = size
        self.lines = []
        self.depth = 0  # expression nesting
        self.loop_vars = []  # inner loop variables in scope
        self.n_helpers = self.r.randint(1, 3)
        self.n_gens = self.r.randint(1, 2)
        self.strict = 0
        self.max_helper = None  # helpers callable from here: f0..f{max_helper-1} (None: all)

    # -- emission
    def emit(self, indent, text):
        self.lines.append("    " * indent + text)

    def chance(self, p):
        return self.r.random() < p

    def pick(self, seq):
        return self.r.choice(seq)

    # -- literals
    def lit_int(self):
        return self.pick(["0", "1", "2", "3", "7", "-1", "-5", "10", "255", "1000", "(2**31)", "(2**62)",
                          "(-(2**63))", "(2**64 + 1)", str(self.r.randint(-100, 100)), "True", "False"])

    def lit_float(self):
        return self.pick(["0.0", "-0.0", "0.5", "1.5", "-2.25", "3.0", "1e10", "1e-5",
                          repr(round(self.r.uniform(-50, 50), 3)), "float('inf')", "float('nan')"])

    def lit_str(self):
        return self.pick(["''", "'a'", "'ab'", "'xyz'", "'é'", "'a b'", "'10'", "'-3'", "'1.5'",
                          "'\\u20ac'", "'Aa'"])

    # -- expressions of a wanted kind: int, float, str, list, bool, any
    def expr(self, kind="any", d=0, strict=False):
        """strict: a small number for sure (operands of *, where a str or list operand would
        repeat a sequence by a large count): only arithmetic on ``(v % 97)`` and the like."""
        if strict:
            self.strict += 1
            try:
                return self.expr(kind, d)
            finally:
                self.strict -= 1
        if kind == "any":
            kind = self.pick(["int", "int", "float", "str", "list", "bool"])
        if self.strict and kind not in ("int", "float"):
            kind = "int"
        if not self.strict and self.chance(0.025):  # a mismatched kind now and then: type errors and deopts
            kind = self.pick(["int", "float", "str", "list"])
        if d >= 3 or self.chance(0.3):
            return self.atom(kind)
        if self.strict:
            e = lambda: self.expr(kind, d + 1)
            return self.pick([
                lambda: f"({e()} {self.pick(['+', '-', '*', '+', '%' if kind == 'int' else '/'])} {e()})",
                lambda: f"(-{e()})",
                lambda: f"abs({e()})",
                lambda: f"({e()} ** 2)",
                lambda: f"min({e()}, {e()})",
                lambda: f"len({self.pick(self.STR_VARS + ('L',))})" if kind == "int" else f"float({e()})",
                lambda: f"({e()} if {self.pick(['flag', 'a > b'])} else {e()})",
            ])()
        return getattr(self, "expr_" + kind)(d + 1)

    def atom(self, kind):
        r = self.r.random()
        if self.strict:
            if kind == "float":
                return self.pick([f"({self.pick(self.VARS)} % 97.5)", "1.5", "-0.25", "g1 % 7.0"])
            return self.pick([f"({self.pick(self.VARS + ('g0', 'o0.n', 'o1.n'))} % 97)", "i", "3", "-2", "I(4)", "True"])
        if kind == "int":
            if r < 0.35:
                return self.pick(self.INT_VARS)
            if r < 0.45 and self.loop_vars:
                return self.pick(self.loop_vars)
            if r < 0.55:
                return "i"
            if r < 0.65:
                return "g0"
            if r < 0.75:
                return f"{self.pick(self.OBJS)}.n"
            if r < 0.78:
                return self.pick(["I(3)", "I(-2)", "True"])
            return self.lit_int()
        if kind == "float":
            if r < 0.5:
                return self.pick(self.FLOAT_VARS)
            if r < 0.6:
                return "g1"
            if r < 0.7:
                return f"{self.pick(self.OBJS)}.f"
            if r < 0.73:
                return "F(2.5)"
            return self.lit_float()
        if kind == "str":
            if r < 0.5:
                return self.pick(self.STR_VARS)
            if r < 0.6:
                return "g2"
            if r < 0.7:
                return f"{self.pick(self.OBJS)}.s"
            if r < 0.75:
                return f"{self.pick(self.CLASSES)}.tag"
            if r < 0.78:
                return "S('sub')"
            return self.lit_str()
        if kind == "list":
            if r < 0.6:
                return "L"
            if r < 0.7:
                return "z"
            return self.pick(["[]", "[1, 2, 3]", "['a', 'b']", "[0.5, 1]", "list(range(4))", "LL([4, 5])"])
        if kind == "bool":
            return self.pick(["True", "False", "flag", "i % 2 == 0", "a > b", "s < t", "not L"])
        return self.lit_int()

    def expr_int(self, d):
        if self.descriptors and self.chance(0.1):
            return self.expr_descriptor(d)
        e = lambda: self.expr("int", d)
        op = self.r.random()
        if op < 0.35:
            o = self.pick(['+', '-', '*', '+', '-', '//', '%', '&', '|', '^'])
            if o == "*":  # no str/list repetition by a large count
                return f"({self.expr('int', d, True)} * {self.expr('int', d, True)})"  # numbers only
            return f"({e()} {o} {e()})"
        return self.pick([
            lambda: f"(-{e()})",
            lambda: f"(~{e()})",
            lambda: f"({e()} << ({e()} & 7))",
            lambda: f"({e()} >> ({e()} & 7))",
            lambda: f"({e()} ** {self.pick(['2', '3', '0'])})",
            lambda: f"len({self.expr(self.pick(['str', 'list']), d)})",
            lambda: f"abs({e()})",
            lambda: f"min({e()}, {e()})",
            lambda: f"max({e()}, {e()})",
            lambda: f"int({self.expr(self.pick(['float', 'str', 'int']), d)})",
            lambda: f"{self.pick(self.OBJS)}.m0({e()})",
            lambda: f"{self.pick(self.OBJS)}.n",
            lambda: f"{self.pick(self.OBJS)}.p",
            lambda: self.helper_call(d),
            lambda: f"sum(gen{self.r.randrange(self.n_gens)}({e()} % 5))",
            lambda: f"sum([{self.expr('int', d)} for j in range({e()} % 4)])",
            lambda: f"sum(q * 2 for q in range(i % 5))",
            lambda: f"({e()} if {self.expr('bool', d)} else {e()})",
            lambda: f"L[{e()} % 3]",
            lambda: f"D.get({self.expr('str', d)}, {e()})",
            lambda: f"D[{self.pick([KEY0, KEY1, self.lit_str()])}]",
            lambda: f"int({self.expr('bool', d)})",
            lambda: f"(lambda u: u + {self.atom('int')})({e()})",
            lambda: f"inner({e()})",
            lambda: f"{self.pick(self.CLASSES)}.cn",
            lambda: f"rec({e()} % 40)",
            lambda: self.helper_call(d, style=self.pick(["kw", "star", "dstar", "kw", "star", "bad"])),
            lambda: f"{self.pick(self.OBJS)}.{self.pick(['m0()', 'm0(1, 2)', 'm2(1, k=2, j=3)', 'm1(v=1, w=2)', 'm2(*L)'])}",
            lambda: f"{self.pick(self.OBJS)}.m0(v={e()})",
            lambda: f"{self.pick(self.OBJS)}.m2({e()})",
            lambda: f"len({self.pick(self.OBJS)}.__dict__)" if self.chance(0.5) else f"len(vars({self.pick(self.OBJS)}))",
            lambda: f"GC[0]",
            lambda: f"MOD.v",
            lambda: f"{self.pick(self.OBJS)}.a{self.r.randrange(5)}",
            lambda: f"{self.pick(['K0', 'K1', 'K3'])}.m0({self.pick(self.OBJS)}, {e()})",
            lambda: f"MOD.fn({e()})",
            lambda: f"_drive(co({e()} % 5))",
            lambda: f"_ln()[1]",
            lambda: f"dv",
            lambda: "many()",
            lambda: "g0",
            lambda: f"t0[{e()} % 2]",
            lambda: f"len(D)",
        ])()

    def helper_call(self, d, style="pos"):
        n = self.n_helpers if self.max_helper is None else self.max_helper
        if not n:
            return self.atom("int")
        f = f"f{self.r.randrange(n)}"
        p, q = self.expr("int", d), self.expr("any", d)
        if style == "kw":
            return f"{f}(q={q}, p={p})" if self.chance(0.5) else f"{f}({p}, q={q})"
        if style == "star":
            return f"{f}(*[{p}, {q}])" if self.chance(0.5) else f"{f}(*({p},))"
        if style == "dstar":
            return f"{f}({p}, **{{'q': {q}}})"
        if style == "bad":  # argument binding errors: their messages must be CPython's
            return self.pick([f"{f}({p}, {q}, 99)", f"{f}()", f"{f}({p}, r={q})", f"{f}({p}, **{{'p': {q}}})",
                              f"{f}(q={q})", f"{f}({p}, {q}, q=1)"])
        if self.chance(0.3):
            return f"{f}({p})"
        return f"{f}({p}, {q})"

    def expr_float(self, d):
        e = lambda: self.expr(self.pick(["float", "float", "int"]), d)
        if self.chance(0.45):
            o = self.pick(['+', '-', '*', '/', '+', '*'])
            if o == "*":
                return f"({self.expr('float', d, True)} * {self.expr(self.pick(['float', 'int']), d, True)})"
            return f"({e()} {o} {e()})"
        return self.pick([
            lambda: f"(-{e()})",
            lambda: f"float({self.expr(self.pick(['int', 'str', 'float']), d)})",
            lambda: f"({e()} ** 0.5)",
            lambda: f"({e()} / {self.pick(['2', '0.5', '3.0'])})",
            lambda: f"abs({e()})",
            lambda: f"{self.pick(self.OBJS)}.f",
            lambda: f"{self.pick(self.OBJS)}.m1({self.expr('float', d, True)})",
            lambda: f"round({e()}, 2)",
            lambda: f"({e()} if {self.expr('bool', d)} else {e()})",
            lambda: f"({e()} % {self.pick(['1.5', '2', '-3.0'])})",
            lambda: f"({e()} // {self.pick(['1.5', '2', '-3.0'])})",
        ])()

    def expr_str(self, d):
        e = lambda: self.expr("str", d)
        return self.pick([
            lambda: f"({e()} + {e()})",
            lambda: f"({e()} + {e()})",
            lambda: f"({e()} * ({self.expr('int', d)} % 3))",
            lambda: f"str({self.expr('any', d)})",
            lambda: f"repr({self.expr(self.pick(['int', 'str', 'float']), d)})",
            lambda: f"f'{{{self.pick(self.INT_VARS + ('i', 'g0', 'o0.n'))}}}-{{{self.pick(self.STR_VARS + ('o1.s',))}!r}}'",
            lambda: f"f'{{{self.pick(self.FLOAT_VARS + ('g1', 'a'))}:.3}}|{{{self.pick(self.VARS)}!s:>4}}'",
            lambda: f"({e()}).upper()",
            lambda: f"({e()}).replace('a', 'b')",
            lambda: f"({e()})[{self.expr('int', d)} % 3:]",
            lambda: f"({e()})[{self.expr('int', d)}]",
            lambda: f"'-'.join([{e()}, {e()}])",
            lambda: f"type({self.expr('any', d)}).__name__",
            lambda: f"{self.pick(self.OBJS)}.s",
            lambda: f"{self.pick(self.OBJS)}.describe()",
            lambda: f"({e()} if {self.expr('bool', d)} else {e()})",
            lambda: f"'%s/%d' % ({e()}, {self.expr('int', d)})",
            lambda: f"{self.pick(self.CLASSES)}.tag",
            lambda: f"str(len({e()}))",
        ])()

    def expr_list(self, d):
        return self.pick([
            lambda: f"[{self.expr('any', d)}, {self.expr('any', d)}]",
            lambda: f"(L + [{self.expr('any', d)}])",
            lambda: f"[{self.expr('int', d)} for j in range({self.expr('int', d)} % 4)]",
            lambda: f"[w for w in L if {self.expr('bool', d)}]",
            lambda: f"sorted([{self.expr('int', d)}, {self.expr('int', d)}, {self.expr('int', d)}])",
            lambda: f"list(gen{self.r.randrange(self.n_gens)}({self.expr('int', d)} % 4))",
            lambda: f"L[1:]",
            lambda: f"[*L, {self.expr('any', d)}]",
            # key=_repr: a set's order depends on the hash of NaN, which is its address
            lambda: f"sorted({{{self.expr('int', d)} % 3, {self.expr('int', d)} % 3}}, key=_repr)",
            lambda: f"sorted({{k: v for k, v in D.items() if v != {self.expr('int', d)}}})",
            lambda: f"list({self.expr('str', d)})",
            lambda: f"list(zip(L, {self.expr('str', d)}))",
        ])()

    def expr_bool(self, d):
        return self.pick([
            lambda: f"({self.expr('int', d)} {self.pick(['<', '<=', '==', '!=', '>', '>='])} {self.expr('int', d)})",
            lambda: f"({self.expr('float', d)} {self.pick(['<', '==', '>='])} {self.expr('float', d)})",
            lambda: f"({self.expr('str', d)} {self.pick(['<', '==', '!=', 'in'])} {self.expr('str', d)})",
            lambda: f"({self.expr('any', d)} in L)",
            lambda: f"isinstance({self.expr('any', d)}, {self.pick(['int', 'str', 'float', 'K0', '(int, float)'])})",
            lambda: f"(not {self.expr('bool', d)})",
            lambda: f"({self.expr('bool', d)} and {self.expr('bool', d)})",
            lambda: f"({self.expr('bool', d)} or {self.expr('bool', d)})",
            lambda: f"hasattr({self.pick(self.OBJS)}, {self.pick(['n', 's', 'extra'])!r})",
            lambda: f"({self.pick(self.OBJS)} is {self.pick(self.OBJS)})",
            lambda: f"(type({self.pick(self.OBJS)}) is {self.pick(self.CLASSES)})",
            lambda: f"({self.pick(self.VARS)} is None)",  # a literal before `is` is a SyntaxWarning
            lambda: f"any(q > {self.expr('int', d)} for q in range(3))",
        ])()

    # -- statements
    def block(self, indent, n, in_loop=True):
        for _ in range(n):
            self.stmt(indent, in_loop)

    def var_of(self, kind):
        return self.pick({"int": self.INT_VARS, "float": self.FLOAT_VARS, "str": self.STR_VARS,
                          "list": self.LIST_VARS}[kind])

    CLAMP = ("a, b, c, x, y, s, t, L, z = _cl(a), _cl(b), _cl(c), _cl(x), _cl(y), _cl(s), _cl(t), _cl(L), _cl(z); "
             "_clamp_state(o0, o1, o2)")

    def stmt(self, ind, in_loop):
        if self.descriptors and self.chance(0.3):
            return self.stmt_descriptor(ind)
        r = self.r.random()
        if ind > 6 and (0.40 <= r < 0.50 or 0.66 <= r < 0.72 or 0.89 <= r < 0.91):
            r = 0.1  # deep enough: no more nested blocks
        E = self.emit
        if r < 0.22:
            kind = self.pick(["int", "int", "float", "str", "list"])
            E(ind, f"{self.var_of(kind)} = {self.expr(kind)}")
        elif r < 0.30:
            kind = self.pick(["int", "float", "str"])
            op = {"int": ["+=", "-=", "*=", "//=", "%=", "|=", "^="], "float": ["+=", "-=", "*=", "/="],
                  "str": ["+="]}[kind]
            o = self.pick(op)
            if o == "*=":  # the target may hold a str or list: keep the count small
                rhs = f"({self.expr('int', strict=True)} % 4)" if kind != "float" else self.expr("float", strict=True)
            else:
                rhs = self.expr(kind)
            E(ind, f"{self.var_of(kind)} {o} {rhs}")
        elif r < 0.40:
            E(ind, f"out.append({self.expr('any')})")
        elif r < 0.46:
            E(ind, f"if {self.expr('bool')}:")
            self.block(ind + 1, self.r.randint(1, 2), in_loop)
            if self.chance(0.5):
                E(ind, "else:")
                self.block(ind + 1, self.r.randint(1, 2), in_loop)
        elif r < 0.50 and len(self.loop_vars) < 2:
            var = f"j{len(self.loop_vars)}"
            it = self.pick([f"range({self.expr('int')} % 4)", "L[:4]", f"{self.expr('str')}[:3]",
                            f"gen{self.r.randrange(self.n_gens)}(3)", "range(3)", "D"])
            E(ind, f"for {var} in {it}:")
            self.loop_vars.append(var)
            E(ind + 1, self.CLAMP)
            self.block(ind + 1, self.r.randint(1, 3), True)
            if self.chance(0.3):
                E(ind + 1, f"if {self.expr('bool')}:")
                E(ind + 2, self.pick(["break", "continue"]))
            self.loop_vars.pop()
        elif r < 0.53:
            # object shape changes
            o = self.pick(self.OBJS)
            E(ind, self.pick([
                f"{o}.n = {self.expr('int')}",
                f"{o}.s = {self.expr('str')}",
                f"{o}.f = {self.expr('float')}",
                f"{o}.extra = {self.expr('any')}",
                f"del {o}.n",
                f"del {o}.s",
                f"del {o}.extra",
                f"{o}.__class__ = {self.pick(self.CLASSES)}",
                f"{o} = {self.pick(self.CLASSES)}({self.expr('int')})",
            ]))
        elif r < 0.575:
            # functions change under their callers
            h, h2 = self.r.randrange(self.n_helpers), self.r.randrange(self.n_helpers)
            E(ind, self.pick([
                f"f{h}.__code__ = f{h2}.__code__" if h2 < h else f"f{h}.__code__ = _orig_code_f{h}",
                f"f{h}.__code__ = _orig_code_f{h}",
                f"f{h}.__defaults__ = ({self.expr('any')},)",
                f"f{h}.__defaults__ = None",
                f"f{h} = _orig_f{h}",
                f"f{h} = f{h2}" if h2 < h else f"f{h} = _alt_f",
                f"rec = _alt_rec",
                f"rec = _orig_rec",
            ]))
        elif r < 0.585:
            o = self.pick(self.OBJS)
            k = self.pick(self.CLASSES)
            E(ind, self.pick([
                f"{k}.__init__ = _alt_init",
                f"{k}.__init__ = _orig_init_{k}",
                f"{o}.__dict__ = {{'n': {self.expr('int')}, 's': {self.expr('str')}}}",
                f"{o}.__dict__.clear()",
                f"vars({o}).update(n={self.expr('int')})",
                f"{o}.__dict__['f'] = {self.expr('float')}",
                f"setattr({o}, {self.pick(['n', 's', 'extra', 'm0'])!r}, {self.expr('any')})",
                f"delattr({o}, {self.pick(['n', 's', 'extra', 'm0'])!r})",
                f"{o} = {k}.__new__({k})",
            ]))
        elif r < 0.60:
            # class changes: monkeypatching, class attributes
            k = self.pick(self.CLASSES)
            E(ind, self.pick([
                f"{k}.m0 = _alt{self.r.randrange(3)}",
                f"{k}.m0 = _orig_m0_{k}",
                f"del {k}.m0",
                f"{k}.cn = {self.expr('int')}",
                f"{k}.tag = {self.expr('str')}",
                f"{k}.describe = _alt_describe",
                f"{k}.n = {self.expr('int')}",
                f"del {k}.n",
                f"{k}.p = property(lambda self: {self.atom('int')} + 1)",
            ]))
        elif r < 0.63:
            # globals, shadowing builtins
            name = self.pick(SHADOWABLE)
            E(ind, self.pick([
                f"g0 = {self.expr('int')}",
                f"g1 = {self.expr('float')}",
                f"g2 = {self.expr('str')}",
                f"{name} = _fake_{name}",
                f"{name} = _fake_{name}",
                f"del {name}",
                f"{name} = _real_{name}",
            ] + ([f"builtins.{name} = _fake_{name}", f"builtins.{name} = _real_{name}"]
                 if self.patch_builtins else [])))
        elif r < 0.66:
            E(ind, f"if {self.expr('bool')}:")
            E(ind + 1, f"raise {self.pick(['E0', 'E1', 'ValueError', 'KeyError'])}({self.expr('any')})")
        elif r < 0.72:
            star = self.r_star.random() < 0.5     # try/except*
            E(ind, "try:")
            self.block(ind + 1, self.r.randint(1, 3), in_loop)
            if self.chance(0.3):
                E(ind + 1, f"raise E1({self.expr('int')})")
            elif star and self.r_star.random() < 0.6:
                other = self.r_star.choice(["KeyError(1)", "ValueError(2)", "G0('in', [E0(3), TypeError(4)])"])
                E(ind + 1, f"raise G0('g', [E1({self.r_star.randrange(9)}), {other}])")
            E(ind, f"except{'*' if star else ''} {self.pick(['E0', 'E1', '(E0, TypeError)', 'ArithmeticError', 'LookupError', 'Exception'])} as e{ind}:")
            E(ind + 1, f"out.append(('caught', _exc(e{ind})))")
            if self.chance(0.3):
                E(ind + 1, self.pick(["raise", f"raise E0('again') from e{ind}"]))
            if self.chance(0.3):
                E(ind, "else:")
                E(ind + 1, "out.append('else')")
            if self.chance(0.4):
                E(ind, "finally:")
                self.block(ind + 1, 1, in_loop)
        elif r < 0.76:
            E(ind, self.pick([
                "a, b = b, a",
                "s, t = t, s",
                "x, y = y, x",
                f"a, *rest = {self.expr('list')}",
                f"b, c = {self.expr('list')}",
                f"*rest, s = {self.expr('str')}",
                "(a, x), s = (b, y), t",
            ]))
        elif r < 0.80:
            E(ind, self.pick([
                f"D[{self.pick([KEY0, KEY1, self.expr('str')])}] = {self.expr('int')}",
                f"del D[{self.pick([KEY0, KEY1, self.expr('str')])}]",
                f"L.append({self.expr('any')})",
                f"L[{self.expr('int')} % 3] = {self.expr('any')}",
                "L.pop()",
                f"L.sort()",
                f"t0 = ({self.expr('any')}, {self.expr('any')})",
            ]))
        elif r < 0.83:
            E(ind, f"print({self.expr('any')}, {self.expr('str')})")
        elif r < 0.86:
            v = self.var_of("int")
            E(ind, f"gg = gen{self.r.randrange(self.n_gens)}({self.expr('int')} % 5)")
            E(ind, f"{v} = next(gg, -1)")
            if self.chance(0.5):
                E(ind, f"out.append(list(gg))")
        elif r < 0.89:
            E(ind, f"def inner(u):")
            E(ind + 1, f"return u + {self.atom('int')}")
            E(ind, f"{self.var_of('int')} = inner({self.expr('int')})")
        elif r < 0.91:
            E(ind, f"with CM({self.expr('int')}) as cm:")
            self.block(ind + 1, 1, in_loop)
        elif r < 0.95:
            E(ind, f"match {self.expr('any')}:")
            E(ind + 1, "case int(n) if n > 3:")
            E(ind + 2, "out.append(('big', n))")
            E(ind + 1, "case [p, *_]:")
            E(ind + 2, "out.append(('seq', p))")
            E(ind + 1, "case str() as q:")
            E(ind + 2, "out.append(('str', q))")
            E(ind + 1, "case _:")
            E(ind + 2, "out.append('other')")
        elif r < 0.97 and in_loop:
            E(ind, f"if {self.expr('bool')}:")
            E(ind + 1, self.pick(["continue", "break"]) if self.loop_vars else "continue")
        elif r < 0.975:
            E(ind, self.pick([
                f"MOD.v = {self.expr('int')}",
                "del MOD.v",
                f"MOD.fn = {self.pick(['_modfn', '_alt_f', 'f0', 'len'])}",
                f"dv = {self.expr('any')}",
                f"setattr({self.pick(self.OBJS)}, 'a' + _str(i % 5), {self.expr('int')})",
                f"{self.pick(self.OBJS)}.a{self.r.randrange(5)} = {self.expr('int')}",
                "del dv",
                f"out.append(_ln())",
            ]))
        elif r < 0.98:
            E(ind, "class Tmp(K0):")
            E(ind + 1, f"cn = {self.expr('int')}")
            E(ind + 1, "def m0(self, v): return v")
            E(ind, f"out.append((Tmp({self.expr('int')}).m0(1), Tmp.cn, isinstance(Tmp(1), K0)))")
        elif r < 0.985:
            E(ind, "gg = gen0(4)")
            E(ind, "next(gg, None)")
            E(ind, self.pick(["gg.close()", "out.append(gg.throw(E0('thrown')))",
                              "out.append(gg.send(None))", "out.append(list(gg))"]))
        else:
            E(ind, f"z = {self.expr('list')}")

    # -- descriptors moved between classes, classes mutated (descriptors=True)
    DESCR_KINDS = ("slot_k2", "slot_foreign", "prop_k0", "prop_rw", "cm", "sm", "fn", "dv",
                   "mdesc", "mdesc_list", "wrapper", "member_c", "getset", "cmdesc", "plain",
                   "ga_fn")
    DESCR_NAMES = ("d0", "d0", "d0", "n", "m0", "p", "f", "s")
    # __bases__ that keep the layout: (class, new bases)
    BASES = (("K1", "(K0,)"), ("K1", "(K3,)"), ("K4", "(K3,)"), ("K4", "(K0,)"),
             ("K5", "(K0,)"), ("K5", "(K3,)"), ("K1", "(K5,)"))

    def expr_descriptor(self, d):
        o, k = self.pick(self.OBJS), self.pick(self.CLASSES)
        name = self.pick(self.DESCR_NAMES)
        return self.pick([
            lambda: f"{o}.{name}",
            lambda: f"{o}.{name}()",
            lambda: f"{o}.{name}({self.expr('int', d)})",
            lambda: f"{k}.{name}",
            lambda: f"{k}.{name}({o})",
            lambda: f"_dvlog()",
        ])()

    def stmt_descriptor(self, ind):
        E = self.emit
        o, k = self.pick(self.OBJS), self.pick(self.CLASSES)
        name = self.pick(self.DESCR_NAMES)
        kb, bases = self.pick(self.BASES)
        every = self.pick(["3", "7", "13", "29"])
        E(ind, self.pick([
            f"{k}.{name} = DP[{self.pick(self.DESCR_KINDS)!r}]",
            # another kind every few iterations: specialized in between, then the next kind
            f"{k}.{name} = DP[_DK[(i // {every}) % _len(_DK)]]",
            f"{k}.{name} = DP[_DK[(i // {every}) % _len(_DK)]]",
            f"{k}.d0 = DP[_DK[(i // {every} + 1) % _len(_DK)]]",
            f"del {k}.{name}",
            f"{o}.{name} = {self.expr('int')}",
            f"del {o}.{name}",
            "_DV.__get__ = _dv_get",
            "del _DV.__get__",
            "_DV.__set__ = _dv_set",
            "del _DV.__set__",
            f"{k}.__getattribute__ = _ga",
            f"del {k}.__getattribute__",
            f"{k}.__getattr__ = _gattr",
            f"del {k}.__getattr__",
            f"{k}.__setattr__ = _sattr",
            f"del {k}.__setattr__",
            f"{kb}.__bases__ = {bases}",
            f"DP['prop_rw'].__init__({self.pick(['_alt_describe', 'len', 'None', '_pget'])})",
            f"DP['prop_k0'].__init__({self.pick(['_alt_describe', '_pget'])}, _dv_pset)",
            # on for `every` iterations, off for the next `every`: sites specialize in a phase
            # and meet the change at its end
            f"_toggle(_DV, {self.pick(['__get__', '__set__'])!r}, i // {every})",
            f"_toggle(_DV, {self.pick(['__get__', '__set__'])!r}, i // {every})",
            f"_toggle({k}, {self.pick(['__getattribute__', '__getattr__', '__setattr__'])!r}, "
            f"i // {every})",
            f"_toggle({k}, 'd0', i // {every}, DP[{self.pick(self.DESCR_KINDS)!r}])",
            f"{kb}.__bases__ = {bases} if (i // {every}) % 2 else _BASES0[{kb!r}]",
            f"DP[{self.pick(['prop_rw', 'prop_k0'])!r}].__init__(_PG[(i // {every}) % _len(_PG)])",
            f"{o}.__class__ = {self.pick(self.CLASSES + ('_DSlots',))}",
        ]))
        if self.chance(0.5):
            E(ind, f"out.append({self.expr_descriptor(0)})")

    def descriptor_preamble(self):
        E = self.emit
        E(0, "class _DV:  # a plain class whose instances sit on classes; it can gain __get__/__set__")
        E(1, "def __call__(self, *a): return ('DV called', _len(a))")
        E(1, "def __repr__(self): return '<DV>'")
        E(0, "_DVLOG = []")
        E(0, "def _dvlog():")
        E(1, "del _DVLOG[:-5]")
        E(1, "return _repr(_DVLOG)")
        E(0, "def _dv_get(self, obj, tp=None): return ('DV get', _type(obj).__name__)")
        E(0, "def _dv_set(self, obj, v): _DVLOG.append(('DV set', _repr(v)[:20]))")
        E(0, "def _dv_pset(self, v): _DVLOG.append(('pset', _repr(v)[:20]))")
        E(0, "def _pget(self): return ('pget', _type(self).__name__)")
        E(0, "class _DSlots:")
        E(1, "__slots__ = ('n', 'sl')")
        E(0, "def _ga(self, name):")
        E(1, "if name == 'n': return -7")
        E(1, "return object.__getattribute__(self, name)")
        E(0, "def _gattr(self, name):")
        E(1, "if name.startswith('_'): raise AttributeError(name)")
        E(1, "return 'ga:' + name")
        E(0, "def _sattr(self, name, v):")
        E(1, "object.__setattr__(self, name, 0 if name == 'n' else v)")
        E(0, "_TOGGLED = {'__get__': _dv_get, '__set__': _dv_set, '__getattribute__': _ga,")
        E(0, "            '__getattr__': _gattr, '__setattr__': _sattr}")
        E(0, "def _toggle(k, name, phase, value=None):")
        E(1, "if phase % 2:")
        E(2, "setattr(k, name, _TOGGLED[name] if value is None else value)")
        E(1, "elif name in k.__dict__:")
        E(2, "delattr(k, name)")
        E(0, "_PG = [_pget, _alt_describe, len, None]")
        E(0, "_BASES0 = {'K1': K1.__bases__, 'K4': K4.__bases__, 'K5': K5.__bases__}")
        E(0, "DP = {")
        E(1, "'slot_k2': K2.__dict__['n'],           # K2's own slot: foreign on every other class")
        E(1, "'slot_foreign': _DSlots.__dict__['sl'],")
        E(1, "'prop_k0': K0.__dict__['p'],")
        E(1, "'prop_rw': property(_pget, _dv_pset),")
        E(1, "'cm': classmethod(lambda cls, *a: ('cm', cls.__name__, _len(a))),")
        E(1, "'sm': staticmethod(lambda *a: ('sm', _len(a))),")
        E(1, "'fn': _alt0,")
        E(1, "'dv': _DV(),")
        E(1, "'mdesc': str.__dict__['upper'],")
        E(1, "'mdesc_list': list.__dict__['append'],")
        E(1, "'wrapper': int.__dict__['__add__'],")
        E(1, "'member_c': complex.__dict__['real'],")
        E(1, "'getset': type(len).__dict__['__name__'],")
        E(1, "'cmdesc': dict.__dict__['fromkeys'],")
        E(1, "'plain': 11,")
        E(1, "'ga_fn': _ga,")
        E(0, "}")
        kinds = list(self.DESCR_KINDS)
        self.r.shuffle(kinds)
        E(0, f"_DK = {kinds[:self.r.randint(2, 6)]!r}  # the kinds the rotating statements cycle through")
        for k in self.CLASSES:
            if self.chance(0.6):
                E(0, f"{k}.d0 = DP[{self.pick(self.DESCR_KINDS)!r}]")

    def helper_body(self, ind):
        for _ in range(self.r.randint(1, 3)):
            r = self.r.random()
            if r < 0.4:
                self.emit(ind, f"p = {self.expr('int')}")
            elif r < 0.6:
                self.emit(ind, f"if {self.expr('bool')}:")
                self.emit(ind + 1, f"raise E0(p)")
            elif r < 0.8:
                self.emit(ind, f"q = {self.expr('any')}")
            else:
                self.emit(ind, f"for j0 in range(p % 3):")
                self.emit(ind + 1, f"p += {self.expr('int')}")

    def program(self):
        E = self.emit
        n_iter = self.r.choice([30, 60, 100, 150])
        E(0, "import builtins")
        E(0, "from sys import _getframe")
        E(0, "G = globals()")
        for name in SHADOWABLE:
            E(0, f"_real_{name} = {name}")
        E(0, "_type, _str, _repr, _getattr, _sorted, _len = type, str, repr, getattr, sorted, len")
        E(0, "def _cl(v):")
        E(1, "t = _type(v)")
        E(1, "if t is _real_int:")
        E(2, "return v if -10**12 < v < 10**12 else v % 1000003")
        E(1, "if t is float:")
        E(2, "return v if -1e15 < v < 1e15 else 0.5")
        E(1, "if t is _str:")
        E(2, "return v[:24]")
        E(1, "if t is list:")
        E(2, "return [_cl(e) if _type(e) is not list else _len(e) for e in v[:8]]")
        E(1, "if t is tuple:")
        E(2, "return tuple([_cl(e) if _type(e) is not tuple else 0 for e in v[:8]])")
        E(1, "return v")
        E(0, "def _exc(e):")
        E(1, "tb, lines = e.__traceback__, []")
        E(1, "while tb is not None:")
        E(2, "lines.append(tb.tb_lineno)")
        E(2, "tb = tb.tb_next")
        E(1, "return (_type(e).__name__, _str(e), lines)")
        E(0, "def _ln():")
        E(1, "f = _getframe(1)")
        E(1, "b = f.f_back  # the caller's line too, if the caller is the program's")
        E(1, "return (f.f_code.co_name, f.f_lineno, b.f_lineno if b and b.f_code.co_filename == f.f_code.co_filename else 0)")
        E(0, "import types as _types")
        E(0, "MOD = _types.ModuleType('MOD')")
        E(0, "MOD.v = 5")
        E(0, "MOD.w = 'mw'")
        E(0, "def _modfn(p, q=0): return p + 1")
        E(0, "MOD.fn = _modfn")
        E(0, "async def co(n):")
        E(1, "if n == 3: raise E0('co')")
        E(1, "return n + 1")
        E(0, "def _drive(c):")
        E(1, "try:")
        E(2, "c.send(None)")
        E(1, "except StopIteration as stop:")
        E(2, "return stop.value")
        E(1, "return 'suspended'")
        E(0, "def many():")
        n_many = self.r.randint(250, 300)
        for k in range(n_many):
            E(1, f"m{k} = {k * 7 - 3}")
        E(1, "return " + " + ".join(f"m{k}" for k in range(0, n_many, 7)))
        E(0, "def _fake_len(x): return 7")
        E(0, "def _fake_type(x): return 'T'")
        E(0, "def _fake_abs(x): return -1")
        E(0, "def _fake_str(x=''): return '<s>'")
        E(0, "def _fake_isinstance(a, b): return True")
        E(0, "def _fake_min(*a, **k): return -99")
        E(0, "def _fake_int(x=0, *b): return 42")
        E(0, "class E0(Exception): pass")
        E(0, "class E1(E0):")
        E(1, "def __str__(self): return 'E1!' + _str(self.args)")
        # an exception group whose split() and derive() note their caller (natively the frame
        # handling the except*: the machinery is C) in what str() shows
        E(0, "class G0(ExceptionGroup):")
        E(1, "def _note(self, what):")
        E(2, "self.callers = (_getattr(self, 'callers', ()) + ((what, _getframe(2).f_code.co_name),))[-3:]")
        E(1, "def split(self, c):")
        E(2, "self._note('split')")
        E(2, "return super().split(c)")
        E(1, "def derive(self, excs):")
        E(2, "self._note('derive')")
        E(2, "g = G0(self.message, excs)")
        E(2, "g.callers = self.callers")
        E(2, "return g")
        E(1, "def __str__(self): return super().__str__() + _str(_getattr(self, 'callers', ()))")
        E(0, "class CM:")
        E(1, "def __init__(self, v): self.v = v")
        E(1, "def __enter__(self): return self.v")
        E(1, "def __exit__(self, *exc): return exc[0] is E0")
        # classes
        E(0, "class K0:")
        E(1, f"cn = {self.lit_int()}")
        E(1, "tag = 'k0'")
        E(1, "def __init__(self, n):")
        E(2, "self.n = n")
        E(2, f"self.s = {self.lit_str()}")
        E(2, f"self.f = {self.lit_float()}")
        E(1, "def m0(self, v):")
        E(2, f"return self.n + v")
        E(1, "def m1(self, v):")
        E(2, f"return self.f * v")
        E(1, "def describe(self):")
        E(2, "return self.tag + ':' + _str(self.n)")
        E(1, "def m2(self, v, w=3, *rest, k=1):")
        E(2, "return v + w + k + _len(rest)")
        E(1, "@property")
        E(1, "def p(self):")
        E(2, "return self.cn + 1")
        E(0, "class K1(K0):")
        E(1, "tag = 'k1'")
        E(1, "def m0(self, v):")
        E(2, f"return self.n * 2 - v")
        E(1, "def m1(self, v):")
        E(2, "return super().m1(v) + 1")
        E(0, "class K2:")
        E(1, "__slots__ = ('n', 's', 'f')")
        E(1, f"cn = {self.lit_int()}")
        E(1, "tag = 'k2'")
        E(1, "def __init__(self, n):")
        E(2, "self.n = n")
        E(2, f"self.s = {self.lit_str()}")
        E(2, f"self.f = {self.lit_float()}")
        E(1, "def m0(self, v):")
        E(2, "return v - self.n")
        E(1, "def m1(self, v):")
        E(2, "return v / 2")
        E(1, "def describe(self):")
        E(2, "return 'slots:' + self.s")
        E(1, "def m2(self, v, *, k=2):")
        E(2, "return v - k")
        E(1, "p = property(lambda self: self.n)")
        E(0, "class K3:")
        E(1, f"cn = {self.lit_int()}")
        E(1, "tag = 'k3'")
        E(1, "def __init__(self, n):")
        E(2, "self.n = n")
        E(2, "self.s = 'k3s'")
        E(1, "def m0(self, v):")
        E(2, "return self.n")
        E(1, "def m1(self, v):")
        E(2, "return 1.25")
        E(1, "def describe(self):")
        E(2, "return 'k3'")
        E(1, "p = 3")
        E(1, "def m2(self, v, w=1):")
        E(2, "return v * w")
        E(0, "class K4(K3):")
        E(1, "tag = 'k4'")
        E(1, "def __getattr__(self, name):")
        E(2, "if name.startswith('_'): raise AttributeError(name)")
        E(2, "return _len(name)")
        E(0, "class K5(K0):")
        E(1, "tag = 'k5'")
        E(1, "def __getattribute__(self, name):")
        E(2, "if name == 'f': return 0.125")
        E(2, "return object.__getattribute__(self, name)")
        E(0, "class I(int):")
        E(1, "def __add__(self, o): return 1000")
        E(1, "def __lt__(self, o): return True")
        E(0, "class F(float):")
        E(1, "def __mul__(self, o): return -1.0")
        E(0, "class S(str):")
        E(1, "def __add__(self, o): return 'S+'")
        E(1, "def __len__(self): return 99")
        E(0, "class LL(list):")
        E(1, "def __getitem__(self, k): return 'LL'")
        E(0, "GC = [0]")
        E(0, "def rec(n):")
        E(1, "return 0 if n <= 0 else 1 + rec(n - 1)")
        E(0, "_orig_rec = rec")
        E(0, "def _alt_rec(n): return -n")
        E(0, "def _alt_f(p, q=2): return p - 1")
        E(0, "def _alt_init(self, n):")
        E(1, "self.s = 'alt'")
        E(1, "self.n = n * 2")
        for k in self.CLASSES:
            E(0, f"_orig_m0_{k} = {k}.__dict__.get('m0', {k}.m0)")
            E(0, f"_orig_init_{k} = {k}.__dict__.get('__init__', {k}.__init__)")
        E(0, "def _alt0(self, v): return v")
        E(0, "def _alt1(self, v=0): return -v")
        E(0, "def _alt2(self, *args): return len(args)")
        E(0, "def _alt_describe(self): return 'alt'")
        E(0, f"g0 = {self.lit_int()}")
        E(0, f"g1 = {self.lit_float()}")
        E(0, f"g2 = {self.lit_str()}")
        E(0, "D = {'k0': 1, 'k1': 2}")
        E(0, f"t0 = (1, 'x')")
        E(0, "o0, o1, o2 = K0(5), K1(6), K2(7)")
        E(0, "L = [1, 2, 3]")
        E(0, "a = b = c = 0")
        E(0, "x = y = 0.0")
        E(0, "s = t = ''")
        E(0, "flag = False")
        E(0, "i = 0")
        E(0, "out = []")
        E(0, "z = []")
        E(0, "def inner(u): return u")
        # helpers: they see the module's globals (shadowed builtins included)
        for h in range(self.n_helpers):
            self.max_helper = h
            E(0, f"def f{h}(p, q=1):")
            self.helper_body(1)
            E(1, f"return {self.pick(['p', 'p + q', 'p * 2', 'len(str(q)) + p'])}")
        self.max_helper = None
        for h in range(self.n_helpers):
            E(0, f"_orig_f{h} = f{h}")
            E(0, f"_orig_code_f{h} = f{h}.__code__")
        for g in range(self.n_gens):
            E(0, f"def gen{g}(n):")
            style = self.r.random()
            if style < 0.1:
                E(1, "yield from range(n)")
                E(1, "return")
            elif style < 0.2 and g > 0:
                E(1, "r = yield from gen0(n)")
                E(1, "yield r")
                E(1, "return")
            elif style < 0.4:
                E(1, "try:")
                E(2, "for j in range(n):")
                E(3, f"yield {self.pick(['j', 'j * 2', 'j + g0', 'len(str(j))'])}")
                E(1, "finally:")
                E(2, "GC[0] += 1")
                continue
            E(1, "for j in range(n):")
            E(2, f"yield {self.pick(['j', 'j * 2', 'j + g0', 'len(str(j))'])}")
            if self.chance(0.3):
                E(2, "if j == 2:")
                E(3, "return")
        # keeps every value the program can grow bounded (written back only when it changed)
        E(0, "def _clamp_state(*objs):")
        E(1, "for n in ('g0', 'g1', 'g2', 't0'):")
        E(2, "v = G.get(n)")
        E(2, "w = _cl(v)")
        E(2, "if w is not v and w != v: G[n] = w")
        E(1, "if _type(G.get('D')) is dict:")
        E(2, "for k, v in list(D.items()):")
        E(3, "w = _cl(v)")
        E(3, "if w is not v and w != v: D[k] = w")
        E(1, "for o in objs:")
        E(2, "d = _getattr(o, '__dict__', None)")
        E(2, "if _type(d) is dict:")
        E(3, "for k, v in list(d.items()):")
        E(4, "w = _cl(v)")
        E(4, "if w is not v and w != v: d[k] = w")
        E(2, "elif _type(o) is K2:")
        E(3, "for k in ('n', 's', 'f'):")
        E(4, "try:")
        E(5, "v = object.__getattribute__(o, k)")
        E(5, "w = _cl(v)")
        E(5, "if w is not v and w != v: object.__setattr__(o, k, w)")
        E(4, "except Exception:")
        E(5, "pass")
        E(1, f"for k in ({', '.join(self.CLASSES)}):")
        E(2, "for n in ('cn', 'tag', 'n'):")
        E(3, "if n in k.__dict__:")
        E(4, "v = k.__dict__[n]")
        E(4, "w = _cl(v)")
        E(4, "if w is not v and w != v: setattr(k, n, w)")
        if self.descriptors:
            self.descriptor_preamble()
        E(0, "def main():")
        E(1, "global " + ", ".join(self.GLOBALS + ("D", "t0", "rec") + tuple(f"f{h}" for h in range(self.n_helpers)) + SHADOWABLE))
        # fresh state on each call of main
        E(1, "out = []")
        E(1, f"a, b, c = {self.lit_int()}, {self.lit_int()}, {self.lit_int()}")
        E(1, f"x, y = {self.lit_float()}, {self.lit_float()}")
        E(1, f"s, t = {self.lit_str()}, {self.lit_str()}")
        E(1, "L = [1, 2, 3]")
        E(1, "z = []")
        E(1, "GC[0] = 0")
        E(1, "D = {'k0': 1, 'k1': 2}")
        E(1, "o0, o1, o2 = K0(1), K1(2), K2(3)")
        E(1, f"for i in range({n_iter}):")
        E(2, "flag = i % 3 == 0")
        E(2, self.CLAMP)
        E(2, "if _type(L) is not list: L = [1]")
        n_stmts = max(2, int(self.r.randint(4, 10) * self.size))
        for _ in range(n_stmts):
            # every statement in its own try, so a raise is recorded and the loop goes on
            E(2, "try:")
            self.stmt(3, True)
            E(2, "except Exception as e:")
            E(3, "out.append(_exc(e))")
        E(1, "res = [out[-40:], a, b, c, x, y, s, t, L, z, g0, D, t0, GC]")
        E(1, "for o in (o0, o1, o2):")
        E(2, "res.append((_type(o).__name__, _sorted(_getattr(o, '__dict__', {}).items())))")
        E(1, "return _repr(res)")
        return "\n".join(self.lines) + "\n"


def generate(seed, index, patch_builtins=False, descriptors=False):
    return Gen(f"{seed}:{index}", patch_builtins=patch_builtins, descriptors=descriptors).program()


STANDALONE_FOOTER = '''

if __name__ == "__main__":
    for _k in range({calls}):
        try:
            print("return", main())
        except Exception as _e:
            print("raise", _type(_e).__name__, _e)
        finally:
            for _n in {shadow!r}:
                setattr(builtins, _n, globals()["_real_" + _n])
'''


# The footer of a standalone reproducer found with --signals: the program's own text (above the
# footer) run by the signal harness, then quietly from the last round's code objects.
STANDALONE_SIGNALS_FOOTER = '''

# --- signal harness (tools/fuzz.py --signals) ---
if __name__ == "__main__":
    import os as _os, sys as _sys
    with open(__file__) as _f:
        _SRC = _f.read().split("\\n# --- signal harness")[0]
    _h = {{}}
    exec(compile({harness!r}, "<fuzz-signal-harness>", "exec"), _h)
    _dir = _os.path.dirname(_sys.modules["pyadapt"].__file__) if "pyadapt" in _sys.modules else None
    _st, _code = _h["signal_rounds"](_SRC, lambda f, *a: f(*a), {intervals!r}, {calls}, {shadow!r}, _dir)
    print("signal rounds:", "; ".join(_h["signal_problems"](_st)) or "every exception reached the program")
    _ns = {{"__name__": "fuzzprog", "__builtins__": builtins}}
    exec(_code, _ns)
    for _k in range({calls}):
        try:
            print("return", _ns["main"]())
        except Exception as _e:
            print("raise", _type(_e).__name__, _e)
        finally:
            for _n in {shadow!r}:
                setattr(builtins, _n, globals()["_real_" + _n])
'''


def standalone(src, header_lines, modes, signals_key=None):
    """The program as a tests/regressions/ file (with the signal harness for a --signals case)."""
    head = ["# pyadapt regression (differential fuzzer)"] + [f"# {l}" if l else "#" for l in header_lines]
    head.append("# MODES: " + " ".join(modes))
    if signals_key is not None:
        footer = STANDALONE_SIGNALS_FOOTER.format(harness=SIGNAL_HARNESS, calls=CALLS, shadow=SHADOWABLE,
                                                  intervals=signal_intervals(signals_key))
    else:
        footer = STANDALONE_FOOTER.format(calls=CALLS, shadow=SHADOWABLE)
    return "\n".join(head) + "\n" + src + footer


# ------------------------------------------------------------------------------------------
# Running one program


def _restore_builtins(saved):
    for k, v in saved.items():
        setattr(builtins, k, v)


def execute(src, mode, calls=CALLS, code=None):
    """Run the program natively (mode 'native') or under pyadapt; return (results, stdout).
    `code`: the program's code object to run (default: a fresh compile of `src`)."""
    saved = {n: getattr(builtins, n) for n in SHADOWABLE}
    buf = io.StringIO()
    results = []
    if code is None:
        code = compile(src, "<fuzz>", "exec")
    ns = {"__name__": "fuzzprog", "__builtins__": builtins}
    try:
        with contextlib.redirect_stdout(buf):
            if mode == "native":
                exec(code, ns)
                call = lambda f: f()
            else:
                import pyadapt
                pyadapt.configure(**MODES[mode][1])
                pyadapt.run(exec, code, ns)
                call = pyadapt.run
            for _ in range(calls):
                try:
                    results.append(("return", call(ns["main"])))
                except Exception as e:  # noqa: BLE001
                    results.append(("raise", type(e).__name__, str(e)))
                finally:
                    _restore_builtins(saved)
    finally:
        _restore_builtins(saved)
    norm = [tuple(_ADDRESS.sub("0x?", str(x)) for x in r) for r in results]
    return norm, _ADDRESS.sub("0x?", buf.getvalue())


def execute_threads(src, mode, nthreads, calls=CALLS):
    """The program's module body exec'd into nthreads namespaces from ONE code object (so the
    threads share pyadapt's units and inline caches, each with its own classes and globals), then
    main() run in all of them at once, with a tiny switch interval: a list of per-thread results
    (printed output is not compared here)."""
    import threading

    import pyadapt

    code = compile(src, "<fuzz>", "exec")
    spaces = [{"__name__": "fuzzprog", "__builtins__": builtins} for _ in range(nthreads)]
    results = [[] for _ in range(nthreads)]
    pyadapt.configure(**MODES[mode][1])
    barrier = threading.Barrier(nthreads)

    def work(k):
        ns, out = spaces[k], results[k]
        pyadapt.run(exec, code, ns)
        barrier.wait()
        for _ in range(calls):
            try:
                out.append(("return", pyadapt.run(ns["main"])))
            except Exception as e:  # noqa: BLE001
                out.append(("raise", type(e).__name__, str(e)))

    old = sys.getswitchinterval()
    sys.setswitchinterval(5e-5)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            threads = [threading.Thread(target=work, args=(k,)) for k in range(nthreads)]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
    finally:
        sys.setswitchinterval(old)
    return [[tuple(_ADDRESS.sub("0x?", str(x)) for x in r) for r in res] for res in results]


# --signals: the program run while SIGALRM fires every few microseconds with a handler that
# raises.  One definition, run by the fuzzer in-process and written into standalone reproducers
# (so it is source text, compiled under its own file name).
SIGNAL_HARNESS = r'''
def signal_rounds(src, run, intervals, calls, shadowable, pyadapt_dir):
    """Run the program once per interval in `intervals`, each time from a fresh compile of
    `src` (so every code object is first entered, compiled and specialized under fire), with
    SIGALRM every `interval` seconds.  The handler records the frame it is handed and, when
    armed, disarms itself and raises SignalRaised (a BaseException: the program's `except
    Exception` lets it through).  Each step (the module body, then main() `calls` times) is
    armed once.  Returns (counts, the last round's code object).

    What must hold: foreign == 0 (no frame of pyadapt's own files handed to the handler),
    not_in_traceback == 0 (what the handler raised passed through the frame it was handed)
    and loop_lost == 0: every exception raised at a RESUME or JUMP_BACKWARD -- where the
    eval loop itself runs the handler, at a function's entry (just after a code object is
    first entered and compiled) or a loop's back edge -- reaches the program: the harness
    catches it, or sys.unraisablehook gets it (raised in a finalizer), or an exception
    handler of the program's own code took it (its __traceback__ is set when a handler is
    entered, and starts at that handler's frame) and replaced it, by raising another
    exception in a `finally` or `except` block, as the program may.  Raised elsewhere, the
    handler may run inside C code, and CPython itself loses some of those (PyErr_Format
    formats its message with PyObject_Repr, which runs the handler, then sets its own
    exception over the handler's: int('a') loses about one in five): counted (raised,
    caught), not checked."""
    import builtins, opcode, signal, sys

    class SignalRaised(BaseException):
        pass

    loop_points = {opcode.opmap["RESUME"], opcode.opmap["JUMP_BACKWARD"]}
    st = {"raised": 0, "caught": 0, "unraisable": 0, "loop_raised": 0, "loop_replaced": 0,
          "loop_lost": 0, "handler_calls": 0, "in_program": 0, "foreign": 0,
          "not_in_traceback": 0}
    armed = [False]
    pending = []   # raised at a loop point in this step, not seen to arrive yet

    def handler(signum, frame):
        st["handler_calls"] += 1
        name = frame.f_code.co_filename if frame is not None else "?"
        if name == "<fuzz>":
            st["in_program"] += 1
        elif pyadapt_dir and name.startswith(pyadapt_dir):
            st["foreign"] += 1
        if armed[0]:
            armed[0] = False
            st["raised"] += 1
            co, i = frame.f_code.co_code, frame.f_lasti
            at_loop_point = 0 <= i < len(co) and co[i] in loop_points
            e = SignalRaised(frame, at_loop_point)
            if at_loop_point:
                st["loop_raised"] += 1
                pending.append(e)
            raise e

    def arrived(e):
        for k, p in enumerate(pending):
            if p is e:
                del pending[k]
                break

    def caught(e):
        st["caught"] += 1
        arrived(e)
        tb, seen = e.__traceback__, False
        while tb is not None:
            seen = seen or tb.tb_frame is e.args[0]
            tb = tb.tb_next
        if not seen:
            st["not_in_traceback"] += 1

    def group_leaves(g):
        for e in g.exceptions:
            if isinstance(e, BaseExceptionGroup):
                yield from group_leaves(e)
            else:
                yield e

    def settle():
        # the loop-point exceptions of this step that the harness did not catch
        for e in pending:
            tb = e.__traceback__
            where = tb.tb_frame.f_code.co_filename if tb is not None else None
            if where is None or (pyadapt_dir and where.startswith(pyadapt_dir)):
                st["loop_lost"] += 1
            else:
                st["loop_replaced"] += 1
        del pending[:]

    def unraisable(u):
        if isinstance(u.exc_value, SignalRaised):
            st["unraisable"] += 1
            arrived(u.exc_value)
        else:
            prev_hook(u)

    saved = {n: getattr(builtins, n) for n in shadowable}
    prev_hook = sys.unraisablehook
    prev_handler = signal.signal(signal.SIGALRM, handler)
    sys.unraisablehook = unraisable
    code = None
    try:
        for interval in intervals:
            code = compile(src, "<fuzz>", "exec")
            ns = {"__name__": "fuzzprog", "__builtins__": builtins}
            signal.setitimer(signal.ITIMER_REAL, interval, interval)
            try:
                for step in range(1 + calls):
                    try:
                        try:
                            armed[0] = True
                            if step == 0:
                                run(exec, code, ns)
                            elif "main" in ns:
                                run(ns["main"])
                        finally:
                            armed[0] = False
                    except SignalRaised as e:
                        caught(e)
                        del e
                    except BaseExceptionGroup as g:
                        # raised in an except* handler: it reaches the program in a group,
                        # with what the handler did not take (natively too)
                        got = [e for e in group_leaves(g) if isinstance(e, SignalRaised)]
                        if not got:
                            raise
                        for e in got:
                            caught(e)
                        del g, got
                    except Exception:
                        pass
                    finally:
                        settle()
                        for n, v in saved.items():
                            setattr(builtins, n, v)
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
    finally:
        signal.signal(signal.SIGALRM, prev_handler)
        sys.unraisablehook = prev_hook
    return st, code


def signal_problems(st):
    """What the counts of signal_rounds() say went wrong (empty: nothing)."""
    out = []
    if st["loop_lost"]:
        out.append("%d of %d exceptions raised by the handler at a function's entry or a "
                   "loop's back edge never reached the program" % (st["loop_lost"], st["loop_raised"]))
    if st["foreign"]:
        out.append("the handler was handed %d frames of pyadapt's own files" % st["foreign"])
    if st["not_in_traceback"]:
        out.append("%d exceptions did not pass through the frame handed to the handler"
                   % st["not_in_traceback"])
    return out
'''
_signal_ns = {}
exec(compile(SIGNAL_HARNESS, "<fuzz-signal-harness>", "exec"), _signal_ns)
signal_rounds, signal_problems = _signal_ns["signal_rounds"], _signal_ns["signal_problems"]
SIGNAL_INTERVALS = (1e-5, 3e-5, 1e-4, 3e-4, 1e-3)   # seconds between two SIGALRMs
SIGNAL_ROUNDS = 3
# An interval is at least this many times what one SIGALRM costs the machine (see signal_floor)
SIGNAL_FLOOR_FACTOR = 4
SIGNAL_FLOOR_MIN = 3e-5   # and never below this (what one signal costs on bare metal: ~3 us)
SIGNAL_FLOOR_ENV = "PYADAPT_FUZZ_SIGNAL_FLOOR"   # the driver's measured floor, for its workers
_signal_floor = []


def signal_cost():
    """Seconds of wall time one SIGALRM costs this process: the kernel's delivery and the
    interpreter running a trivial Python handler.  Measured as the time a fixed loop loses under a
    timer firing every 200 us, divided by the signals delivered (the best of five tries).  About
    3 us on bare metal; 25-35 us in some virtual machines (where each timer interrupt exits to the
    hypervisor), and there a timer every 10 or 30 us leaves a program no time to run: CPython
    itself then spends its life in the handler, nests it until RecursionError and dies."""
    hits = [0]

    def handler(signum, frame):
        hits[0] += 1

    def spin(n):
        x = 0
        for i in range(n):
            x += i
        return x

    def timed(n):
        t = time.perf_counter()
        spin(n)
        return time.perf_counter() - t

    n = 1000
    while timed(n) < 0.04:
        n *= 2
    previous = signal.signal(signal.SIGALRM, handler)
    quiet, loud = [], []
    try:
        for _ in range(5):
            quiet.append(timed(n))
            hits[0] = 0
            signal.setitimer(signal.ITIMER_REAL, 2e-4, 2e-4)
            try:
                loud.append((timed(n), hits[0]))
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
    finally:
        signal.signal(signal.SIGALRM, previous)
    # the fastest of each kind: what other processes add to a run is never negative, so the
    # minimum of each is the least disturbed (the minimum of the differences would not be: a
    # quiet run slowed by another process made it 0, and the floor 0, on a loaded machine)
    loud_time, loud_hits = min(loud)
    return max(0.0, loud_time - min(quiet)) / loud_hits if loud_hits else 0.0


def signal_floor():
    """The shortest interval a --signals run uses on this machine: SIGNAL_FLOOR_FACTOR times
    signal_cost(), at least SIGNAL_FLOOR_MIN, so the program keeps most of its time (measured once per run, by the driver;
    its workers read it from the environment)."""
    if not _signal_floor:
        given = os.environ.get(SIGNAL_FLOOR_ENV)
        _signal_floor.append(float(given) if given else
                             max(SIGNAL_FLOOR_MIN, SIGNAL_FLOOR_FACTOR * signal_cost()))
    return _signal_floor[0]


def signal_intervals(key):
    """The intervals of one program's rounds (drawn from its seed and index; none shorter than
    signal_floor())."""
    r = random.Random("signals:" + key)
    floor = signal_floor()
    return [max(floor, r.choice(SIGNAL_INTERVALS)) for _ in range(SIGNAL_ROUNDS)]


def execute_signals(src, mode, key):
    """signal_rounds() natively or under pyadapt in `mode`: (counts, last code object)."""
    if mode == "native":
        run, pyadapt_dir = (lambda f, *a: f(*a)), None
    else:
        import pyadapt
        pyadapt.configure(**MODES[mode][1])
        run, pyadapt_dir = pyadapt.run, os.path.dirname(os.path.abspath(pyadapt.__file__))
    with contextlib.redirect_stdout(io.StringIO()):
        return signal_rounds(src, run, signal_intervals(key), CALLS, SHADOWABLE, pyadapt_dir)


def check(src, modes, threads=0, signals_key=None, totals=None):
    """Run natively and in each mode: {mode: description of the difference} (empty if none).
    threads > 1: also run each mode in that many threads at once (tools/fuzz.py --threads).
    signals_key: also run the program under signals (tools/fuzz.py --signals); the counts are
    added up in `totals`."""
    native = execute(src, "native")
    diffs = {}
    if signals_key is not None:
        for mode in ("native", *modes):
            try:
                st, code = execute_signals(src, mode, signals_key)
            except BaseException as e:  # noqa: BLE001
                diffs[f"{mode}/signals"] = f"the signal rounds raised {type(e).__name__}: {e}"
                continue
            if totals is not None:
                t = totals.setdefault("native" if mode == "native" else "pyadapt", {})
                for k, v in st.items():
                    t[k] = t.get(k, 0) + v
            problems = signal_problems(st)
            if problems:
                diffs[f"{mode}/signals"] = "; ".join(problems) + f" (counts {st})"
            elif mode != "native" and code is not None:
                # the code objects compiled and specialized under fire, run again quietly
                got = execute(src, mode, code=code)
                if got != native:
                    diffs[f"{mode}/after-signals"] = describe_diff(native, got)
    if threads > 1:
        for mode in modes:
            try:
                per_thread = execute_threads(src, mode, threads)
            except BaseException as e:  # noqa: BLE001
                diffs[f"{mode}/threads"] = f"pyadapt run raised {type(e).__name__}: {e}"
                continue
            for k, got in enumerate(per_thread):
                if got != native[0]:
                    diffs[f"{mode}/thread{k}"] = describe_diff(native, (got, native[1]))
                    break
    for mode in modes:
        try:
            got = execute(src, mode)
        except BaseException as e:  # noqa: BLE001 - anything escaping is a difference
            diffs[mode] = f"pyadapt run raised {type(e).__name__}: {e}"
            continue
        if got != native:
            diffs[mode] = describe_diff(native, got)
    return diffs


def describe_diff(native, got):
    (nres, nout), (gres, gout) = native, got
    for k, (a, b) in enumerate(zip(nres, gres)):
        if a != b:
            if len(a) == len(b) and a[0] == b[0]:
                # show where the two reprs part, not their (long, equal) beginnings
                ta, tb = " ".join(a[1:]), " ".join(b[1:])
                at = next((n for n, (p, q) in enumerate(zip(ta, tb)) if p != q), min(len(ta), len(tb)))
                lo = max(0, at - 80)
                return (f"call {k + 1} ({a[0]}), from char {lo}: native {ta[lo:at + 80]!r} / "
                        f"pyadapt {tb[lo:at + 80]!r}")
            return f"call {k + 1}: native {_clip(a)} / pyadapt {_clip(b)}"
    if nout != gout:
        nl, gl = nout.splitlines(), gout.splitlines()
        for k, (a, b) in enumerate(zip(nl, gl)):
            if a != b:
                return f"printed line {k + 1}: native {a!r} / pyadapt {b!r}"
        return f"printed {len(nl)} lines natively, {len(gl)} under pyadapt"
    return "results differ"


def _clip(x, n=300):
    t = repr(x)
    if len(t) <= n:
        return t
    return t[: n // 2] + " ... " + t[-n // 2:]


# ------------------------------------------------------------------------------------------
# Worker process: runs a range of cases, one JSON line per event


def worker(seed, start, end, modes, patch_builtins, threads=0, descriptors=False, signals=False):
    import warnings

    import pyadapt  # noqa: F401 - import before the first case, not inside its timing

    warnings.simplefilter("ignore", SyntaxWarning)  # generated code may compare literals with `is`

    def say(obj):
        sys.__stdout__.write(json.dumps(obj) + "\n")
        sys.__stdout__.flush()

    for i in range(start, end):
        say({"start": i})
        src = generate(seed, i, patch_builtins, descriptors)
        t0 = time.perf_counter()
        totals = {}
        diffs = check(src, modes, threads, f"{seed}:{i}" if signals else None, totals)
        say({"done": i, "diffs": diffs, "time": time.perf_counter() - t0, "signals": totals})
    return 0


# ------------------------------------------------------------------------------------------
# Driver


class Driver:
    def __init__(self, ns):
        self.ns = ns
        self.modes = ns.modes
        self.found = []  # (index, kind, detail, file)
        self.ran = 0
        self.case_time = 0.0
        self.signals = {}  # --signals: {"native"/"pyadapt": {count: sum}}

    def record(self, i, kind, detail):
        src = generate(self.ns.seed, i, self.ns.builtins, self.ns.descriptors)
        os.makedirs(self.ns.out, exist_ok=True)
        path = os.path.join(self.ns.out, f"fuzz_{self.ns.seed}_{i}.py")
        lines = [f"Found by: python3 tools/fuzz.py --seed {self.ns.seed} (case {i})"
                 + (" --builtins" if self.ns.builtins else "")
                 + (" --descriptors" if self.ns.descriptors else "")
                 + (" --signals" if self.ns.signals else ""),
                 f"In-process result: {kind}: {detail}"]
        modes = list(self.modes)
        key = f"{self.ns.seed}:{i}" if self.ns.signals else None
        with open(path, "w") as f:
            f.write(standalone(src, lines, modes, key))
        # does the standalone file show it too (python3 FILE vs python3 -m pyadapt FILE)?
        native = _run_standalone(path, None, self.ns.case_timeout)
        shows = [m for m in modes if _run_standalone(path, m, self.ns.case_timeout) != native]
        lines.append("Standalone: " + (f"differs in {' '.join(shows)}" if shows else "does NOT differ "
                                       + ("in one run of each mode (where signals land varies from "
                                          "run to run: run it again)" if key else
                                          "(the in-process run depends on more than this program)")))
        with open(path, "w") as f:
            f.write(standalone(src, lines, shows or modes, key))
        self.found.append((i, kind, detail, path))
        print(f"case {i}: {kind}: {detail}\n    -> {path} ({lines[-1]})", file=sys.stderr, flush=True)

    def run_range(self, start, end):
        """Run cases [start, end) in worker processes, restarting after a crash or hang."""
        i = start
        while i < end:
            cmd = [sys.executable, os.path.abspath(__file__), "--worker", "--seed", str(self.ns.seed),
                   "--start", str(i), "--end", str(end), "--modes", *self.modes]
            if self.ns.builtins:
                cmd.append("--builtins")
            if self.ns.descriptors:
                cmd.append("--descriptors")
            if self.ns.signals:
                cmd.append("--signals")
            if self.ns.threads:
                cmd += ["--threads", str(self.ns.threads)]
            env = dict(os.environ)
            for k in ("PYADAPT", "PYADAPT_SPECIALIZE", "PYADAPT_WARMUP"):
                env.pop(k, None)
            if self.ns.signals:
                env[SIGNAL_FLOOR_ENV] = repr(signal_floor())
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                    env=env, start_new_session=True)
            current = None
            deadline = None
            import selectors
            sel = selectors.DefaultSelector()
            sel.register(proc.stdout, selectors.EVENT_READ)
            hung = False
            while True:
                timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
                if not sel.select(timeout):
                    hung = True
                    break
                line = proc.stdout.readline()
                if not line:
                    break
                try:
                    msg = json.loads(line)
                except ValueError:
                    continue
                if "start" in msg:
                    current = msg["start"]
                    deadline = time.monotonic() + self.ns.case_timeout
                elif "done" in msg:
                    self.ran += 1
                    self.case_time += msg["time"]
                    for who, counts in msg.get("signals", {}).items():
                        mine = self.signals.setdefault(who, {})
                        for k, v in counts.items():
                            mine[k] = mine.get(k, 0) + v
                    if msg["diffs"]:
                        detail = "; ".join(f"[{m}] {d}" for m, d in msg["diffs"].items())
                        self.record(msg["done"], "mismatch", detail)
                    current = None
                    deadline = None
                    i = msg["done"] + 1
            sel.close()
            if hung:
                os.killpg(proc.pid, signal.SIGKILL)
            err = proc.stderr.read()
            rc = proc.wait()
            if current is not None:
                self.ran += 1
                if hung:
                    self.record(current, "hang", f"no result in {self.ns.case_timeout}s")
                else:
                    what = f"killed by {signal.Signals(-rc).name}" if rc < 0 else f"worker exit {rc}"
                    self.record(current, "crash", what + (": " + err.strip().splitlines()[-1] if err.strip() else ""))
                i = current + 1
            elif rc != 0:
                print(f"worker failed (exit {rc}):\n{err}", file=sys.stderr)
                return False
        return True


def reduce_file(path, modes, timeout):
    """Delete lines (and the blocks they open) while the standalone program still mismatches."""
    with open(path) as f:
        text = f.read()
    head, sep, rest = text.partition("\nimport builtins\n")
    body, sep2, footer = rest.partition("\n\nif __name__ == \"__main__\":")
    prefix = head + sep
    footer = sep2 + footer

    def mismatches(lines):
        src = prefix + "\n".join(lines) + "\n" + footer
        try:
            compile(src, path, "exec")
        except SyntaxError:
            return False
        tmp = path + ".try.py"
        with open(tmp, "w") as f:
            f.write(src)
        try:
            native = _run_standalone(tmp, None, timeout)
            if native[0] in ("timeout",) or (isinstance(native[0], int) and native[0] < 0):
                return False
            for m in modes:
                if _run_standalone(tmp, m, timeout) != native:
                    return True
            return False
        finally:
            os.unlink(tmp)

    lines = body.split("\n")
    if not mismatches(lines):
        print("the standalone program does not mismatch; nothing to reduce", file=sys.stderr)
        return 1
    changed = True
    while changed:
        changed = False
        k = len(lines) - 1
        while k >= 0:
            ind = len(lines[k]) - len(lines[k].lstrip())
            j = k + 1
            while j < len(lines) and lines[j].strip() and len(lines[j]) - len(lines[j].lstrip()) > ind:
                j += 1
            for cand in (lines[:k] + lines[j:], lines[:k] + ([" " * ind + "pass"] if lines[k].strip() else []) + lines[j:]):
                if cand != lines and mismatches(cand):
                    lines = cand
                    changed = True
                    break
            k -= 1
    out = path[:-3] + ".min.py"
    with open(out, "w") as f:
        f.write(prefix + "\n".join(lines) + "\n" + footer)
    print(f"reduced to {len(lines)} lines: {out}", file=sys.stderr)
    return 0


def _run_standalone(path, mode, timeout):
    env = dict(os.environ)
    for k in ("PYADAPT", "PYADAPT_SPECIALIZE", "PYADAPT_WARMUP"):
        env.pop(k, None)
    env["PYTHONHASHSEED"] = "0"
    if mode is None:
        cmd = [sys.executable, "-W", "ignore::SyntaxWarning", path]
    else:
        env.update(MODES[mode][0] if mode in MODES else {})
        cmd = [sys.executable, "-W", "ignore::SyntaxWarning", "-m", "pyadapt", path]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return ("timeout", "", "")
    return (p.returncode, _ADDRESS.sub("0x?", p.stdout), _ADDRESS.sub("0x?", p.stderr))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--count", type=int, default=100, help="number of programs (default 100)")
    ap.add_argument("--start", type=int, default=0, help="first program index (default 0)")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--modes", nargs="+", default=list(DEFAULT_MODES), choices=sorted(MODES),
                    help="pyadapt modes to compare with native (default: w0 w2 w50 generic)")
    ap.add_argument("--builtins", action="store_true",
                    help="also patch the builtins module (not only shadow builtins with globals)")
    ap.add_argument("--descriptors", action="store_true",
                    help="also move descriptors of every kind (slots, properties, classmethods, "
                         "method descriptors, __getattribute__, __getattr__, ...) between classes "
                         "mid-loop, and mutate classes (__bases__, an attribute's class gaining "
                         "__get__/__set__, properties re-initialized)")
    ap.add_argument("--signals", action="store_true",
                    help="also run each program while SIGALRM fires every 10 us to 1 ms (never "
                         "more often than the machine can take: see signal_floor) with a "
                         "handler that raises, from fresh code objects (first entered, compiled "
                         "and specialized under fire): every exception the handler raises must "
                         "reach the program, through the frame the handler was handed, never a "
                         "frame of pyadapt's; then the code objects run quietly, compared")
    ap.add_argument("--threads", type=int, default=0, metavar="N",
                    help="also run each mode in N threads at once, sharing the code objects "
                         "(and so pyadapt's inline caches); not with --builtins")
    ap.add_argument("--out", default=os.path.join(os.getcwd(), "fuzz-out"),
                    help="where mismatching programs are written (default ./fuzz-out)")
    ap.add_argument("--case-timeout", type=float, default=30.0, help="seconds per program before it counts as a hang")
    ap.add_argument("--show", metavar="SEED:INDEX", help="print one program and exit")
    ap.add_argument("--reduce", metavar="FILE", help="shrink a mismatching standalone program")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--end", type=int, help=argparse.SUPPRESS)
    ns = ap.parse_args(argv)

    if ns.show:
        seed, _, index = ns.show.partition(":")
        print(generate(int(seed), int(index), ns.builtins, ns.descriptors), end="")
        return 0
    if ns.reduce:
        return reduce_file(ns.reduce, ns.modes, ns.case_timeout)
    if ns.worker:
        return worker(ns.seed, ns.start, ns.end, ns.modes, ns.builtins, ns.threads, ns.descriptors,
                      ns.signals)

    t0 = time.monotonic()
    if ns.signals:
        signal_floor()   # here, in the main thread (signal.signal), before the workers start
    drv = Driver(ns)
    end = ns.start + ns.count
    jobs = max(1, min(ns.jobs, ns.count))
    if jobs == 1:
        ok = drv.run_range(ns.start, end)
    else:
        import threading
        step = -(-ns.count // jobs)
        oks = []
        threads = [threading.Thread(target=lambda a, b: oks.append(drv.run_range(a, b)),
                                    args=(a, min(a + step, end))) for a in range(ns.start, end, step)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        ok = all(oks)
    kinds = {}
    for _, kind, _, _ in drv.found:
        kinds[kind] = kinds.get(kind, 0) + 1
    print(f"fuzz: seed {ns.seed}{' --descriptors' if ns.descriptors else ''}{' --signals' if ns.signals else ''}, {drv.ran} programs x {len(ns.modes)} modes ({' '.join(ns.modes)}), "
          f"{len(drv.found)} differing" + (" (" + ", ".join(f"{v} {k}" for k, v in sorted(kinds.items())) + ")" if kinds else "")
          + f", {time.monotonic() - t0:.1f}s")
    if ns.signals:
        print(f"signals: intervals {', '.join(f'{i * 1e6:g}' for i in SIGNAL_INTERVALS)} us, none "
              f"shorter than {signal_floor() * 1e6:.0f} us ({SIGNAL_FLOOR_FACTOR} x what one SIGALRM "
              f"costs here)")
    for who in ("native", "pyadapt"):
        c = drv.signals.get(who)
        if c:
            print(f"signals {who}: {c['raised']} raised by the handler, {c['caught']} reached the "
                  f"program, {c['unraisable']} in finalizers (unraisable); at function entries "
                  f"and loop edges {c['loop_raised']} raised, {c['loop_replaced']} replaced by "
                  f"the program's own handlers, {c['loop_lost']} lost; "
                  f"{c['handler_calls']} handler calls, {c['in_program']} in the program's "
                  f"frames, {c['foreign']} in pyadapt's")
    for i, kind, detail, path in sorted(drv.found):
        print(f"  case {i}: {kind}: {path}")
    return 0 if ok and not drv.found else 1


if __name__ == "__main__":
    sys.exit(main())
