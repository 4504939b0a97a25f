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
#| property [(270, 'LOAD_ATTR'), (288, 'CACHE')]
#| __init__ [(338, 'CALL')]
#| __getattribute__ [(406, 'LOAD_ATTR'), (424, 'CACHE')]
#| call [(480, 'CACHE')]
#| call with defaults [(536, 'CACHE')]
#| generator [(552, 'FOR_ITER'), (554, 'CACHE')]
#| __getitem__ at BINARY_SUBSCR or its last cache entry: True
import sys, dis

def opname_at(code, lasti):
    return dis._all_opname[code.co_code[lasti]]

def subscr_places(code):
    # BINARY_SUBSCR_GETITEM is inlined natively once CPython has specialized it, and shows
    # the caller at the instruction's last cache entry from then on; when that happens
    # depends on the specializer's warmup, so only the two possible places are checked.
    op = dis.opmap["BINARY_SUBSCR"]
    at = [i.offset for i in dis.get_instructions(code) if i.opname == "BINARY_SUBSCR"][0]
    return at, at + 2 * dis._inline_cache_entries[op]

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
    lines = [f"{k} {sorted((x, opname_at(code, x)) for x in v)}" for k, v in seen.items()]
    ok = getitem <= set(subscr_places(subscript.__code__))
    lines.append(f"__getitem__ at BINARY_SUBSCR or its last cache entry: {ok}")
    return lines

if __name__ == "__main__":      # tests/test_inline_frames.py runs observe() differentially
    print("\n".join(observe()))
