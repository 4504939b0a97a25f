# pyadapt regression: the caller's f_lasti pointed into an inline cache while a property getter, __init__ or
#   __getattribute__ ran in an inline frame (LOAD_ATTR_PROPERTY, CALL_PY_CLASS,
#   LOAD_ATTR_GETATTRIBUTE_OVERRIDDEN).  Found by: issue 10 item 7
#   (../shared/repro/lasti_inline_frames.py).  CPython 3.11 calls those in C: the caller shows
#   the LOAD_ATTR / CALL itself.  Calls it inlines (CALL_PY_*, BINARY_SUBSCR_GETITEM) show the
#   last cache entry; a generator resumed by FOR_ITER shows the FOR_ITER.
# MODES: adaptive generic w0
# EXPECTED-EXIT: 0
# EXPECTED-STDOUT:
#| property [(288, 'LOAD_ATTR')]
#| __init__ [(366, 'CALL')]
#| __getattribute__ [(440, 'LOAD_ATTR')]
#| call [(526, 'CACHE')]
#| call with defaults [(604, 'CACHE')]
#| generator [(626, 'FOR_ITER')]
#| __getitem__ at BINARY_SUBSCR or its last cache entry: True
# EXPECTED-STDOUT-3.12:
#| property at LOAD_ATTR or its last cache entry: True
#| __init__ [(338, 'CALL')]
#| __getattribute__ at LOAD_ATTR or its last cache entry: True
#| call [(480, 'CACHE')]
#| call with defaults [(536, 'CACHE')]
#| generator at FOR_ITER or its last cache entry: True
#| __getitem__ at BINARY_SUBSCR or its last cache entry: True
# EXPECTED-STDOUT-3.13:
#| property at LOAD_ATTR or its last cache entry: True
#| __init__ [(340, 'CALL')]
#| __getattribute__ at LOAD_ATTR or its last cache entry: True
#| call [(476, 'CALL')]
#| call with defaults [(532, 'CALL')]
#| generator at FOR_ITER or its last cache entry: True
#| __getitem__ at BINARY_SUBSCR or its last cache entry: True
# 3.12 runs property getters, __getattribute__ and generators resumed by for in C until it has
# specialized the site (the caller shows the instruction), inline after (its last cache
# entry): when depends on CPython's own warmup, so only the two places are checked there.
import sys, dis

def cache_units(opcode):
    """How many cache entries follow `opcode` (3.13's table is a dict by name)."""
    entries = dis._inline_cache_entries
    if isinstance(entries, dict):
        return entries.get(dis._all_opname[opcode], 0)
    return entries[opcode]

def opname_at(code, lasti):
    return dis._all_opname[code.co_code[lasti]]

def at_instruction_or_last_cache(code, lastis, opname):
    """Is every f_lasti in `lastis` an `opname` instruction of `code` or its last cache entry?"""
    places = set()
    for ins in dis.get_instructions(code):
        if ins.opname == opname:
            places.add(ins.offset)
            places.add(ins.offset + 2 * cache_units(ins.opcode))
    return bool(lastis) and set(lastis) <= places

# the kinds CPython runs inline only once it has specialized the site (3.12: LOAD_ATTR_PROPERTY,
# LOAD_ATTR_GETATTRIBUTE_OVERRIDDEN, FOR_ITER_GEN), with the instruction they are seen at
WARMUP_DEPENDENT = ({"property": "LOAD_ATTR", "__getattribute__": "LOAD_ATTR",
                     "generator": "FOR_ITER"} if sys.version_info >= (3, 12) else {})

def subscr_places(code):
    # BINARY_SUBSCR_GETITEM is inlined natively once CPython has specialized it, and shows
    # the caller at the instruction's last cache entry from then on; when that happens
    # depends on the specializer's warmup, so only the two possible places are checked.
    op = dis.opmap["BINARY_SUBSCR"]
    at = [i.offset for i in dis.get_instructions(code) if i.opname == "BINARY_SUBSCR"][0]
    return at, at + 2 * cache_units(op)

class P:
    @property
    def p(self):
        return sys._getframe(1).f_lasti

class K:
    def __init__(self):
        self.lasti = sys._getframe(1).f_lasti

class S:
    def __getitem__(self, i):
        return sys._getframe(1).f_lasti

class GA:
    def __getattribute__(self, name):
        return sys._getframe(1).f_lasti

def plain():
    return sys._getframe(1).f_lasti

def defaults(a=1):
    return sys._getframe(1).f_lasti

def gen():
    while True:
        yield sys._getframe(1).f_lasti

def subscript(s):
    return s[0]

def observe():
    o, s, ga = P(), S(), GA()
    code = sys._getframe().f_code
    seen = {k: set() for k in ("property", "__init__", "__getattribute__", "call",
                               "call with defaults", "generator")}
    getitem = set()
    g = gen()
    for i in range(200):
        seen["property"].add(o.p)
        seen["__init__"].add(K().lasti)
        seen["__getattribute__"].add(ga.anything)
        seen["call"].add(plain())
        seen["call with defaults"].add(defaults())
        for x in g:
            seen["generator"].add(x)
            break
        getitem.add(subscript(s))
    lines = [f"{k} at {WARMUP_DEPENDENT[k]} or its last cache entry: "
             f"{at_instruction_or_last_cache(code, v, WARMUP_DEPENDENT[k])}"
             if k in WARMUP_DEPENDENT else
             f"{k} {sorted((x, opname_at(code, x)) for x in v)}" for k, v in seen.items()]
    ok = getitem <= set(subscr_places(subscript.__code__))
    lines.append(f"__getitem__ at BINARY_SUBSCR or its last cache entry: {ok}")
    return lines

if __name__ == "__main__":      # tests/test_inline_frames.py runs observe() differentially
    print("\n".join(observe()))
