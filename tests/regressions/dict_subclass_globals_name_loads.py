# pyadapt regression: NameError instead of the globals' __missing__: on 3.13 a type alias in a
#   class body evaluated its value with LOAD_FROM_DICT_OR_GLOBALS as 3.12 does.
# Found by: tools/regrtest.py over every module on 3.13.0 (test_type_aliases
#   TypeParamsExoticGlobalsTest.test_exec_with_unusual_globals).
# Native: exec() with a dict subclass as globals.  LOAD_GLOBAL reads globals that are not an
#   exact dict through the mapping protocol (__missing__ answers); LOAD_NAME in a class body
#   reads them as a plain dict (NameError) on every version; LOAD_FROM_DICT_OR_GLOBALS (a type
#   alias in a class body) does as LOAD_NAME on 3.12 and as LOAD_GLOBAL on 3.13.
# Under pyadapt before the fix: 3.13 gave NameError for the alias.  Fixed in csrc/pa_eval.c
#   (load_from_dict_or_globals; the seam's PA_SEAM_DICT_OR_GLOBALS_AS_GLOBAL).
# MODES: adaptive generic w0 w50
# EXPECTED-EXIT: 0
# EXPECTED-STDOUT:
#| NameError: name 'undefined_b' is not defined
#| SyntaxError: invalid syntax (t, line 2)
#| missing:undefined_d
#| <built-in function len>
#| missing:undefined_e
# EXPECTED-STDOUT-3.12:
#| NameError: name 'undefined_b' is not defined
#| NameError: name 'undefined_c' is not defined
#| missing:undefined_d
#| <built-in function len>
#| missing:undefined_e
# EXPECTED-STDOUT-3.13:
#| NameError: name 'undefined_b' is not defined
#| missing:undefined_c
#| missing:undefined_d
#| <built-in function len>
#| missing:undefined_e


class customdict(dict):
    def __missing__(self, key):
        return "missing:" + key


def attempt(code, get):
    ns = customdict()
    try:
        exec(code, ns)
        return get(ns)
    except Exception as e:
        return type(e).__name__ + ": " + str(e)


def compiled(src):
    try:
        return compile(src, "t", "exec")
    except SyntaxError as e:        # `type` statements are new in 3.12
        return e


CASES = [
    (compiled("class A:\n  y = undefined_b"), lambda ns: ns["A"].y),
    (compiled("class A:\n  type Alias = undefined_c"), lambda ns: ns["A"].Alias.__value__),
    (compiled("def f(): return undefined_d\nz = f()"), lambda ns: ns["z"]),
    (compiled("class A:\n  y = len"), lambda ns: ns["A"].y),
    (compiled("def g():\n  return [undefined_e for _ in (1, 2)][0]\nw = g()"),
     lambda ns: ns["w"]),
]


def outcome(code, get):
    if isinstance(code, SyntaxError):
        return "SyntaxError: %s (%s, line %s)" % (code.msg, code.filename, code.lineno)
    return attempt(code, get)


def main():
    # the same code objects several times: past the whole-program compile_after (2), so that
    # pyadapt's loop runs them, and warm
    for _ in range(5):
        out = [outcome(code, get) for code, get in CASES]
    print("\n".join(map(str, out)))


main()
