"""CPython 3.13's own bytecode under pyadapt's loop, compared with CPython's (runs on 3.13
only).  tests/test_rows313.py runs the new rows' handlers on 3.11; tests/test_saved_locals.py
runs coroutines suspended inside comprehensions, which 3.13's turned-over stacks made a case
of their own."""
import sys

import pytest

import pyadapt
# What 3.13's own bytecode does under pyadapt's loop (runs where 3.13 is installed and
# enabled): keyword calls (CALL_KW), a closure called with a bad ** (DICT_MERGE's error with
# PUSH_NULL after the callable), a generator suspended, resumed, thrown into and closed
# (where 3.13's frames go on), and sys.exc_info() after a handler (POP_EXCEPT's NULL).
def _programs_313():
    def kw(a, b=2, *, c=3, **rest):
        return a, b, c, rest

    def calls():
        f1 = lambda a: a  # noqa: E731
        out = [kw(1, c=5), kw(a=1, b=2, d=4), sorted([3, 1, 2], key=lambda x: -x)]
        try:
            f1(**1)
        except TypeError as e:
            out.append(str(e))
        return out

    def gen():
        try:
            x = yield 1
            yield x + 1
            yield from (10, 11)
        except KeyError as e:
            yield repr(e)

    def generators():
        g = gen()
        out = [next(g), g.send(5), next(g), g.throw(KeyError("k"))]
        g.close()
        h = gen()
        out.append(next(h))
        out.append(h.gi_frame.f_lasti >= 0)
        return out

    def exc_info_after_handler():
        try:
            raise IndexError
        except IndexError:
            try:
                raise KeyError
            except KeyError:
                pass
            return sys.exc_info()[0].__name__

    return [calls, generators, exc_info_after_handler]


@pytest.mark.skipif(sys.version_info < (3, 13), reason="3.13's bytecode")
@pytest.mark.parametrize("program", _programs_313(), ids=lambda p: p.__name__)
def test_313_bytecode_runs_in_pyadapt(program):
    want = program()
    assert pyadapt.run(program) == want
    assert pyadapt.unit_info(program)["entries"] >= 1


# --- 3.13's calls in pyadapt's call family (PUSH_NULL_UNDER) ------------------------------------

def _hits(form):
    return pyadapt.stats()["specialized"][form]["hits"]


class _Point:
    def __init__(self, x):
        self.x = x

    def plus(self, y):
        return self.x + y


def _add(a, b):
    return a + b


def _defaults(a, b=10):
    return a + b


def _calls_of_every_kind():
    local = _add                  # a local callable: 3.13's PUSH_NULL after it
    total = 0
    for i in range(20):
        total += _add(i, 1)                      # LOAD_GLOBAL's NULL
        total += local(i, 2)                     # PUSH_NULL_UNDER
        total += _defaults(i)                    # defaults
        total += _Point(i).plus(1)               # a class, then a method
        total += len([i]) + abs(-i)              # builtins
        total += local(*(i, 3)) + _add(**{"a": i, "b": 4})   # CALL_FUNCTION_EX
        total += _defaults(i, b=5)               # CALL_KW
    return total


@pytest.mark.skipif(sys.version_info < (3, 13), reason="3.13's bytecode")
def test_313_calls_specialize():
    from harness import check
    forms = ["CALL_PY_EXACT_ARGS", "CALL_PY_WITH_DEFAULTS", "CALL_PY_CLASS", "CALL_LEN",
             "CALL_BUILTIN_O", "LOAD_METHOD_WITH_VALUES"]
    before = {f: _hits(f) for f in forms}
    check(_calls_of_every_kind)
    assert {f: _hits(f) > before[f] for f in forms} == dict.fromkeys(forms, True)
    ops = [i.opname for i in pyadapt.get_instructions(_calls_of_every_kind)]
    # 3.13's LOAD_CONST names + CALL_KW compile to pyadapt's KW_NAMES + CALL
    assert "PUSH_NULL_UNDER" in ops and "CALL_FUNCTION_EX" in ops and "KW_NAMES" in ops
    assert "CALL_KW" not in ops


# --- a frame that changes loops with a call pending (3.13: the NULL's place turned over) --------

def _trace_on_in_arguments():
    events = []

    def tracer(frame, event, arg):
        events.append(event)
        return tracer

    def on():
        sys.settrace(tracer)
        return 1

    local = _add
    try:
        first = local(1, on())            # hand-over with [NULL, local, 1] on the stack
        second = _add(local(2, 3), 4)
    finally:
        sys.settrace(None)
    return first, second, events


def _trace_on_in_a_comprehension():
    events = []

    def tracer(frame, event, arg):
        events.append(event)
        return tracer

    def on(x):
        if x == 1:
            sys.settrace(tracer)
        return x

    local = _add
    try:
        out = [local(x, on(x)) for x in range(3)]   # a saved local's NULL beside the pending call
        out.append(local(5, 6))
    finally:
        sys.settrace(None)
    return out, [e for e in events if e != "line"][:1]


def _generator_in_arguments():
    local = _add
    received = local(1, (yield "first"))     # suspended with a call pending
    yield received


def _tracing_resumes_pyadapts_generator():
    def tracer(frame, event, arg):
        return tracer

    g = _generator_in_arguments()
    out = [next(g)]                       # suspended by pyadapt's loop
    sys.settrace(tracer)
    try:
        out.append(g.send(41))            # resumed by CPython's (tracing)
    finally:
        sys.settrace(None)
    return out


def _pyadapt_resumes_tracings_generator():
    def tracer(frame, event, arg):
        return tracer

    g = _generator_in_arguments()
    sys.settrace(tracer)
    try:
        out = [next(g)]                   # suspended by CPython's loop
    finally:
        sys.settrace(None)
    out.append(g.send(41))                # resumed by pyadapt's
    return out


@pytest.mark.skipif(sys.version_info < (3, 13), reason="3.13's bytecode")
@pytest.mark.parametrize("program", [_trace_on_in_arguments, _trace_on_in_a_comprehension,
                                     _tracing_resumes_pyadapts_generator,
                                     _pyadapt_resumes_tracings_generator],
                         ids=lambda p: p.__name__.strip("_"))
def test_313_call_pending_across_loops(program):
    want = program()
    for config in ({"specialize": False}, {"specialize": True, "warmup": 0}):
        pyadapt.configure(**config)
        try:
            for _ in range(3):
                assert pyadapt.run(program) == want
        finally:
            pyadapt.configure(specialize=True, warmup=2)
