"""Reference counts balance: a corpus of differential cases run many times under pyadapt
leaves no growth in allocated blocks, and objects die exactly when they die natively."""
import gc
import weakref

import pyadapt
from harness import check, run_python


def test_corpus_many_times_no_block_growth():
    proc = run_python(
        r'''
import sys, gc, io, contextlib, importlib
sys.path.insert(0, %r)
import pyadapt
cases = []
for m in ["test_ops", "test_names", "test_classes", "test_comprehensions", "test_match",
          "test_exceptions", "test_statements", "test_generators", "test_from_c",
          "test_specialization"]:
    mod = importlib.import_module(m)
    cases += [f for n, f in vars(mod).items() if n.startswith("case_") and callable(f)]
def run_all():
    for f in cases:
        for args, kwargs in getattr(f, "_diff_arg_sets", [((), {})]):
            with contextlib.redirect_stdout(io.StringIO()):
                try:
                    pyadapt.run(f, *args, **kwargs)
                except BaseException:
                    pass
for _ in range(3):
    run_all()
gc.collect(); before = sys.getallocatedblocks()
for _ in range(8):
    run_all()
gc.collect(); after = sys.getallocatedblocks()
print(len(cases) > 100, after - before < 200, after - before)
''' % (__import__("os").path.dirname(__file__),),
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    first = proc.stdout.split()
    assert first[:2] == ["True", "True"], proc.stdout


def case_weakref_callbacks_fire_in_order():
    log = []

    class Obj:
        pass

    def make(tag):
        o = Obj()
        o.r = weakref.ref(o, lambda _: log.append("dead " + tag))
        return o

    a = make("a")
    log.append("before del")
    del a
    log.append("after del")
    b = make("b")
    b = make("c")             # rebinding kills b's first object here
    log.append("rebound")
    for i in range(3):
        x = make("loop%d" % i)
    log.append("loop done")
    del x
    try:
        y = make("exc")
        raise ValueError
    except ValueError:
        log.append("in handler")
    del y
    log.append("end")
    return log


def case_temporaries_die_at_statement_end():
    log = []

    class Noisy:
        def __init__(self, n):
            self.n = n

        def __del__(self):
            log.append("del %d" % self.n)

        def value(self):
            return self.n

    total = Noisy(1).value() + Noisy(2).value()
    log.append("sum %d" % total)
    [Noisy(i).value() for i in range(3, 5)]
    log.append("after comprehension")
    return log


def test_weakref_callbacks_fire_in_order():
    gc.disable()
    try:
        check(case_weakref_callbacks_fire_in_order)
        check(case_temporaries_die_at_statement_end)
    finally:
        gc.enable()


def test_except_star_machinery_balances_on_every_path():
    """CHECK_EG_MATCH and PREP_RERAISE_STAR (csrc/pa_excgroup.c), their error paths included
    (bad types, split() and derive() raising or returning the wrong thing, notes that are not
    a sequence): no growth in allocated blocks, and the leaves' reference counts unchanged."""
    proc = run_python(
        r'''
import sys, gc
import pyadapt

class G(ExceptionGroup):
    mode = None
    def split(self, cond):
        if G.mode == "split raises":
            raise LookupError("split")
        if G.mode == "split not a tuple":
            return [None, None]
        if G.mode == "split short tuple":
            return (None,)
        return super().split(cond)
    def derive(self, excs):
        if G.mode == "derive raises":
            raise OSError("derive")
        if G.mode == "derive not a group":
            return ValueError("x")
        return G(self.message, excs)

leaves = [ValueError(1), TypeError(2), KeyError(3), OSError(4)]

def scenario(mode, typ, reraise, notes):
    G.mode = None
    inner = G("inner", [leaves[2], leaves[3]])
    eg = G("g", [leaves[0], leaves[1], inner])
    if notes is not None:
        eg.__notes__ = notes
    G.mode = mode
    try:
        try:
            raise eg
        except* typ as e:
            if reraise == "raise":
                raise
            if reraise == "new":
                raise RuntimeError("new")
        except* KeyError:
            raise
        except* OSError:
            pass
    except BaseException as out:
        return type(out).__name__
    return None

def run_all():
    for mode in (None, "split raises", "split not a tuple", "split short tuple",
                 "derive raises", "derive not a group"):
        for typ in (ValueError, (ValueError, TypeError), ExceptionGroup, 3, Exception):
            for reraise in ("raise", "new", "pass"):
                for notes in (None, ["n"], 5):
                    scenario(mode, typ, reraise, notes)
    try:
        try:
            raise ValueError(0)
        except* ValueError:
            raise
    except BaseException:
        pass

before_rc = [sys.getrefcount(x) for x in leaves]
for _ in range(15):     # warm-up: specialization, caches
    pyadapt.run(run_all)
gc.collect(); before = sys.getallocatedblocks()
for _ in range(10):
    pyadapt.run(run_all)
gc.collect(); after = sys.getallocatedblocks()
for x in leaves:
    x.__traceback__ = x.__context__ = None
del x
gc.collect()
after_rc = [sys.getrefcount(x) for x in leaves]
# a leak of one block per scenario would be 2,700 (10 rounds of 270); the rest is noise
print(after - before < 1000, before_rc == after_rc, after - before, before_rc, after_rc)
''',
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split()[:2] == ["True", "True"], proc.stdout
