"""Coroutines suspended inside an inlined comprehension, resumed by the other loop.

Since 3.12 a list, set or dict comprehension runs in its function's frame (PEP 709): its
variables' old values are saved on the value stack (LOAD_FAST_AND_CLEAR; NULL for an unbound
one) and restored after it.  On 3.13 CPython's loop keeps a call's NULL above the callable and
pyadapt's under it, so a generator's stack is turned over when it changes loops; an `await`
inside a comprehension suspends the frame with a saved local's NULL beside a value, which a
scan took for a call's (the frame called NULL when CPython's loop resumed it: a crash).  The
compiler now marks where the saved locals are at each yield (pa_compile.c, mark_saved_slots).

Every program runs natively and under pyadapt (generic and adaptive, several runs), with
tracing switched on or off between the sends so that each loop resumes frames the other one
suspended; results, exceptions and their messages must be the same, and pyadapt must have
compiled and entered the coroutine (its unit, not rejected).
"""
import sys
import types

import pytest

import pyadapt


def f(items, extra=0):
    return (tuple(items) if not isinstance(items, (dict, set)) else sorted(items.items())
            if isinstance(items, dict) else sorted(items)), extra


@types.coroutine
def suspend(value):
    got = yield value
    return (value, got)


async def in_arguments(ys):
    return f([await suspend(x) for x in ys])          # x unbound: its saved NULL under f's call


async def bound_before(ys):
    x = "outer"
    out = f([await suspend(x) for x in ys])
    return out, x                                     # restored from the stack


async def unbound_after(ys):
    out = f([await suspend(x) for x in ys])
    try:
        return out, x                                 # noqa: F821 -- unbound again
    except UnboundLocalError as exc:
        return out, str(exc)


async def two_variables(pairs):
    return f([await suspend(a * b) for a, b in pairs],
             len([await suspend(b) for a, b in pairs]))


async def nested(ys):
    return f([[await suspend((x, z)) for z in range(2)] for x in ys])


async def dict_and_set(ys):
    return f({x: await suspend(x) for x in ys}), f({(await suspend(x))[0] for x in ys})


async def numbers(n):
    for i in range(n):
        await suspend(-i)
        yield i


async def async_comprehension(n):
    return f([await suspend(v) async for v in numbers(n)], n)


async def agen_yielding_comprehensions(ys):
    for k in range(2):
        yield f([await suspend((k, x)) for x in ys])


async def through_async_generator(ys):
    return [v async for v in agen_yielding_comprehensions(ys)]


async def thrown_into(ys):
    x = "outer"
    try:
        out = f([await suspend(x) for x in ys])
    except ValueError as exc:
        return "caught", str(exc), x
    return out, x


PROGRAMS = [
    (in_arguments, (3,)), (bound_before, (3,)), (unbound_after, (2,)),
    (two_variables, ([(1, 2), (3, 4)],)), (nested, (2,)), (dict_and_set, (3,)),
    (async_comprehension, (3,)), (through_async_generator, (2,)), (thrown_into, (3,)),
]


def _tracer(frame, event, arg):
    return _tracer


def drive(program, args, tracing):
    """Send into program's coroutine until it returns: `tracing(step)` says whether tracing is
    on for each send; thrown_into gets a ValueError at its third step.  What happened, as
    comparable data."""
    real_args = tuple(range(a) if isinstance(a, int) and program is not async_comprehension
                      else a for a in args)
    coro = program(*real_args)
    seen = []
    step = 0
    try:
        while True:
            sys.settrace(_tracer if tracing(step) else None)
            try:
                if program is thrown_into and step == 2:
                    seen.append(coro.throw(ValueError("boom")))
                else:
                    seen.append(coro.send(None if step == 0 else step * 10))
            finally:
                sys.settrace(None)
            step += 1
    except StopIteration as stop:
        return "returned", seen, stop.value
    except Exception as exc:         # noqa: BLE001 -- compared with the native run
        return "raised", seen, type(exc).__name__, str(exc)


TRACINGS = {
    "untraced": lambda step: False,
    "traced_after_first": lambda step: step >= 1,   # CPython's loop resumes pyadapt's frames
    "traced_first_only": lambda step: step == 0,    # pyadapt's loop resumes CPython's
    "alternating": lambda step: step % 2 == 1,
}


def _entries(program):
    info = pyadapt.unit_info(program)
    return 0 if info is None else info["entries"]


def same_under_pyadapt(want, program, call):
    """pyadapt.run(*call) gives `want` in generic and adaptive mode, three runs each, and
    pyadapt's loop entered `program`'s frame in each run (a start or a resume: a program run
    by CPython's loop alone fails), its unit compiled, not refused."""
    for config in ({"specialize": False}, {"specialize": True, "warmup": 0}):
        pyadapt.configure(**config)
        try:
            for _ in range(3):
                before = _entries(program)
                assert pyadapt.run(*call) == want
                assert _entries(program) > before
                info = pyadapt.unit_info(program)
                assert info["rejected"] is None, info
        finally:
            pyadapt.configure(specialize=True, warmup=2)


@pytest.mark.parametrize("tracing", sorted(TRACINGS))
@pytest.mark.parametrize("program,args", PROGRAMS, ids=[p.__name__ for p, _ in PROGRAMS])
def test_suspended_in_a_comprehension_resumed_by_either_loop(program, args, tracing):
    if sys.gettrace() is not None:
        pytest.skip("the test run itself is traced (coverage): the loops would not alternate")
    want = drive(program, args, TRACINGS[tracing])
    assert want[0] in ("returned", "raised") and len(want[1]) >= 2
    same_under_pyadapt(want, program, (drive, program, args, TRACINGS[tracing]))


# --- tracing switched on inside a comprehension, for the frame itself (pdb's set_trace) --------
# The frame changes loops at once, its stack holding a saved local's NULL (the comprehension's
# variable was unbound) beside a pending call: the hand-over finds the saved locals' places by
# the compiler's walk made again for that instruction (pa_saved_slots_at).  Before, the frame
# stayed in pyadapt's loop until its stack had no NULL, and its line events were lost
# meanwhile.

def _add(a, b):
    return a + b


def _trace_here(events):
    def tracer(frame, event, arg):
        events.append((event, frame.f_code.co_name, frame.f_lineno))
        return tracer
    sys._getframe(2).f_trace = tracer          # the comprehension's frame, as pdb does
    sys.settrace(tracer)


def traced_in_comprehension():
    events = []

    def on(v):
        if v == 1:
            _trace_here(events)
        return v

    local = _add
    try:
        out = [local(x, on(x)) for x in range(3)]
        out.append(local(5, 6))
    finally:
        sys.settrace(None)
    return out, events


def traced_in_nested_comprehensions():
    events = []

    def on(v):
        if v == (1, 0):
            _trace_here(events)
        return v[0]

    local = _add
    try:
        out = [[local(a, on((a, b))) for b, c in [(0, 1), (1, 2)]] for a in range(3)]
    finally:
        sys.settrace(None)
    return out, events


def traced_then_raised_in_comprehension():
    events = []

    def on(v):
        if v == 1:
            _trace_here(events)
        if v == 2:
            raise KeyError(v)
        return v

    local = _add
    try:
        try:
            out = [local(x, on(x)) for x in range(3)]
        except KeyError as exc:
            out = ["caught", repr(exc)]
        out.append(local(5, 6))
    finally:
        sys.settrace(None)
    return out, events


@pytest.mark.parametrize("program", [traced_in_comprehension, traced_in_nested_comprehensions,
                                     traced_then_raised_in_comprehension],
                         ids=lambda p: p.__name__)
def test_tracing_switched_on_inside_a_comprehension(program):
    if sys.gettrace() is not None:
        pytest.skip("the test run itself is traced (coverage)")
    want = program()
    # line events of the comprehension's frame (the function's own on 3.12+, <listcomp> before)
    assert any(event == "line" and name not in ("on", "_add") for event, name, _ in want[1])
    same_under_pyadapt(want, program, (program,))


# --- what the walk refuses runs in CPython's loop, and says why -----------------------------------

def _saved_local_negated():
    """x = 5; then a saved local taken by UNARY_NEGATIVE, which no compiler emits: the walk
    cannot follow it, so the code is refused (3.13's bytecode, made by hand)."""
    op = __import__("opcode").opmap
    code = bytes([op["RESUME"], 0, op["LOAD_CONST"], 0, op["STORE_FAST"], 0,
                  op["LOAD_FAST_AND_CLEAR"], 0, op["UNARY_NEGATIVE"], 0, op["RETURN_VALUE"], 0])
    template = (lambda: None).__code__
    made = template.replace(co_code=code, co_consts=(5,), co_varnames=("x",), co_nlocals=1,
                            co_stacksize=2, co_linetable=b"", co_exceptiontable=b"")
    return types.FunctionType(made, {})


@pytest.mark.skipif(sys.version_info < (3, 13), reason="the walk runs where stacks are turned "
                                                       "over: 3.13")
def test_a_saved_local_the_walk_cannot_follow_is_refused_and_runs_natively():
    func = _saved_local_negated()
    assert func() == -5
    fallbacks = pyadapt.stats()["fallbacks"]["compile_failed"]
    assert pyadapt.run(func) == -5
    info = pyadapt.unit_info(func)
    assert info["rejected"] == "compile_failed"
    assert info["rejected_because"].startswith("saved locals: ")
    assert pyadapt.stats()["fallbacks"]["compile_failed"] > fallbacks
