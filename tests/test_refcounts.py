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
