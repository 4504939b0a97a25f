# pyadapt regression: tb_lasti of the caller's traceback entry when a property getter, __init__ or
#   __getattribute__ run in an inline frame raises (variant of lasti_inline_frames.py): the
#   instruction natively, it was an inline cache entry; __init__ returning a value raises the
#   TypeError at the CALL.
# MODES: adaptive generic w0
# EXPECTED-EXIT: 0
# EXPECTED-STDOUT:
#| property [('KeyError', 8, 172, 'LOAD_ATTR')]
#| init [('KeyError', 10, 214, 'CALL')]
#| init returns 1 [('TypeError', 12, 256, 'CALL')]
#| getattribute [('KeyError', 14, 284, 'LOAD_ATTR')]
#| call [('KeyError', 16, 334, 'CACHE')]
#| call with defaults [('KeyError', 18, 376, 'CACHE')]
#| generator [('KeyError', 20, 410, 'FOR_ITER')]
# EXPECTED-STDOUT-3.12:
#| property [('KeyError', 8)] at LOAD_ATTR or its last cache entry: True
#| init [('KeyError', 10, 202, 'CALL')]
#| init returns 1 [('TypeError', 12, 234, 'CALL')]
#| getattribute [('KeyError', 14)] at LOAD_ATTR or its last cache entry: True
#| call [('KeyError', 16, 308, 'CACHE')]
#| call with defaults [('KeyError', 18, 340, 'CACHE')]
#| generator [('KeyError', 20)] at FOR_ITER or its last cache entry: True
# EXPECTED-STDOUT-3.13:
#| property [('KeyError', 8)] at LOAD_ATTR or its last cache entry: True
#| init [('KeyError', 10, 208, 'CALL')]
#| init returns 1 [('TypeError', 12, 244, 'CALL')]
#| getattribute [('KeyError', 14)] at LOAD_ATTR or its last cache entry: True
#| call [('KeyError', 16, 320, 'CALL')]
#| call with defaults [('KeyError', 18, 356, 'CALL')]
#| generator [('KeyError', 20)] at FOR_ITER or its last cache entry: True
# 3.12 runs property getters, __getattribute__ and generators resumed by for in C until it has
# specialized the site (the traceback shows the instruction), inline after (its last cache
# entry): when depends on CPython's own warmup, so only the two places are checked there.
import sys, dis

def where(code, lasti):
    return lasti, dis._all_opname[code.co_code[lasti]]

class P:
    @property
    def p(self):
        raise KeyError("p")

class K:
    def __init__(self):
        raise KeyError("init")

class R:
    def __init__(self):
        return 1          # TypeError: __init__() should return None

class GA:
    def __getattribute__(self, name):
        raise KeyError(name)

def f():
    raise KeyError("f")

def fd(a=1):
    raise KeyError("fd")

def g():
    yield 1
    raise KeyError("g")

# the kinds CPython runs inline only once it has specialized the site (3.12: LOAD_ATTR_PROPERTY,
# LOAD_ATTR_GETATTRIBUTE_OVERRIDDEN, FOR_ITER_GEN), with the instruction they are seen at
WARMUP_DEPENDENT = ({"property": "LOAD_ATTR", "getattribute": "LOAD_ATTR",
                     "generator": "FOR_ITER"} if sys.version_info >= (3, 12) else {})

def cache_units(opcode):
    """How many cache entries follow `opcode` (3.13's table is a dict by name)."""
    entries = dis._inline_cache_entries
    if isinstance(entries, dict):
        return entries.get(dis._all_opname[opcode], 0)
    return entries[opcode]

def at_instruction_or_last_cache(code, lastis, opname):
    """Is every tb_lasti in `lastis` an `opname` instruction of `code` or its last cache entry?"""
    places = set()
    for ins in dis.get_instructions(code):
        if ins.opname == opname:
            places.add(ins.offset)
            places.add(ins.offset + 2 * cache_units(ins.opcode))
    return bool(lastis) and set(lastis) <= places

def observe():
    o, ga = P(), GA()
    code = sys._getframe().f_code
    seen = {}
    for i in range(100):
        for name in ("property", "init", "init returns 1", "getattribute", "call", "call with defaults", "generator"):
            try:
                if name == "property":
                    o.p
                elif name == "init":
                    K()
                elif name == "init returns 1":
                    R()
                elif name == "getattribute":
                    ga.x
                elif name == "call":
                    f()
                elif name == "call with defaults":
                    fd()
                else:
                    for x in g():
                        pass
            except (KeyError, TypeError) as e:
                tb = e.__traceback__
                seen.setdefault(name, set()).add(
                    (type(e).__name__, tb.tb_lineno - code.co_firstlineno) + where(code, tb.tb_lasti))
    out = {}
    for k, v in seen.items():
        if k in WARMUP_DEPENDENT:
            ok = at_instruction_or_last_cache(code, {p[2] for p in v}, WARMUP_DEPENDENT[k])
            out[k] = "%s at %s or its last cache entry: %s" % (
                sorted({p[:2] for p in v}), WARMUP_DEPENDENT[k], ok)
        else:
            out[k] = sorted(v)
    return out

if __name__ == "__main__":      # tests/test_inline_frames.py runs observe() differentially
    for k, v in observe().items():
        print(k, v)
