"""Helper of the signal-during-import regression programs (not a case: its name starts with _).

install() puts a finder on sys.meta_path that serves modules fresh_0, fresh_1, ... from source
made on the fly: each import runs the import machinery (importlib's Python code) and a module
body whose code objects are all new -- functions, a class with a property and __init__, a
generator, comprehensions, a match -- called enough to be compiled by pyadapt and specialized.
"""
import importlib.abc
import importlib.util
import sys

TEMPLATE = '''
K = {n}
def f0(x):
    return x + K
def f1(x, y=2):
    return [f0(i) * y for i in range(x)]
def f2(s):
    return {{c: s.count(c) for c in s}}
def gen(n):
    for i in range(n):
        yield i * K
class C:
    def __init__(self, v):
        self.v = v
    @property
    def w(self):
        return self.v + K
    def m(self, k):
        match k:
            case int(q) if q > 2:
                return q + self.w
            case [a, *_]:
                return a
            case _:
                return 0
total = 0
for i in range(30):
    c = C(i)
    total += f0(i) + len(f1(3)) + len(f2("abca")) + sum(gen(4)) + c.w + c.m(i) + c.m([i])
'''


class FreshModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path=None, target=None):
        if name.startswith("fresh_"):
            return importlib.util.spec_from_loader(name, self)
        return None

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        n = int(module.__name__[len("fresh_"):])
        code = compile(TEMPLATE.format(n=n), f"<fresh module {n}>", "exec")
        exec(code, module.__dict__)


# A signal whose handler raises while a weakref callback runs (importlib's module-lock
# cleanup, `_get_module_lock.<locals>.cb`, runs from the dealloc of a lock) is reported as
# unraisable and dropped by CPython itself, natively too ("Exception ignored in: <function
# _get_module_lock.<locals>.cb>"): the interpreter, not pyadapt, loses it there (2 of about
# 70 runs here).  install() keeps such a KeyboardInterrupt or SystemExit and
# import_fresh() raises it again in the program, so that what the programs check is what
# pyadapt could lose: an exception raised anywhere else.
_dropped = []


def _unraisable(unraisable):
    if isinstance(unraisable.exc_value, (KeyboardInterrupt, SystemExit)):
        _dropped.append(unraisable.exc_value)
    else:
        sys.__unraisablehook__(unraisable)


def install():
    sys.meta_path.insert(0, FreshModules())
    sys.unraisablehook = _unraisable


def import_fresh(n):
    """Import the n-th fresh module and drop it again; its `total`."""
    if _dropped:
        raise _dropped.pop()
    mod = importlib.import_module(f"fresh_{n}")
    del sys.modules[f"fresh_{n}"]
    return mod.total
