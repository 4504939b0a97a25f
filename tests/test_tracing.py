"""Tracing and profiling switched on *inside* code pyadapt is running (debuggers, coverage, cProfile).

The trace and profile functions must see the same events, in the same order, with the same line
numbers as natively: frames called while tracing is on go to the native loop (or pyadapt emits
the events itself), and a frame that asks to be traced (pdb's set_trace) is traced.
"""

import sys

import pytest

from harness import collect, factory, run_case


def helper(n):
    total = 0
    for i in range(n):
        total += i
    return total


def raiser():
    raise ValueError("traced raise")


def gen(n):
    for i in range(n):
        yield i


def _event(frame, event, arg):
    code = frame.f_code
    if event == "exception":
        arg = arg[0].__name__
    elif event in ("c_call", "c_return", "c_exception"):
        arg = getattr(arg, "__name__", "?")
    elif event == "return":
        arg = repr(arg)[:30]
    else:
        arg = None
    return (event, code.co_name, frame.f_lineno - code.co_firstlineno, arg)


def _own(frame):
    return frame.f_code.co_filename == __file__


def _recording_tracer():
    """A trace function recording the events of this file's frames, and its list."""
    events = []

    def tracer(frame, event, arg):
        if _own(frame):
            events.append(_event(frame, event, arg))
        return tracer

    return tracer, events


def case_settrace_then_call():
    tracer, events = _recording_tracer()

    sys.settrace(tracer)
    try:
        helper(3)
        try:
            raiser()
        except ValueError:
            pass
        list(gen(2))
        [i * 2 for i in range(2)]
    finally:
        sys.settrace(None)
    return events


def case_settrace_traces_current_frame_like_pdb():
    """pdb.set_trace(): the caller's frame gets f_trace, then its next lines produce 'line' events."""
    tracer, events = _recording_tracer()

    frame = sys._getframe()
    frame.f_trace = tracer
    sys.settrace(tracer)
    x = 1
    x += helper(2)
    y = x * 2
    sys.settrace(None)
    frame.f_trace = None
    return events, y


def _set_trace_on_caller_and_raise(tracer):
    sys.settrace(tracer)
    sys._getframe().f_back.f_trace = tracer
    raise RuntimeError


def case_callee_traces_its_caller_then_raises():
    # the caller, running in pyadapt's loop, sees the exception arrive from its callee
    # ('exception'), its handler's lines and its 'return' (regrtest's test_09_settrace_and_raise)
    tracer, events = _recording_tracer()

    def caller():
        try:
            _set_trace_on_caller_and_raise(tracer)
        except RuntimeError:
            pass
        return "done"

    try:
        result = caller()
    finally:
        sys.settrace(None)
    return result, events


def case_setprofile_then_call():
    events = []

    def profiler(frame, event, arg):
        if _own(frame):
            events.append(_event(frame, event, arg))

    sys.setprofile(profiler)
    try:
        helper(2)
        len([1, 2])
        sorted([3, 1], key=abs)
        try:
            raiser()
        except ValueError:
            pass
    finally:
        sys.setprofile(None)
    return events


def case_cprofile_enable_in_the_middle():
    import cProfile
    import pstats

    prof = cProfile.Profile()
    prof.enable()
    for _ in range(3):
        helper(5)
    list(gen(3))
    prof.disable()
    stats = pstats.Stats(prof)
    own = {}
    for (filename, _line, name), (cc, nc, _tt, _ct, _callers) in stats.stats.items():
        if filename == __file__:
            own[name] = (cc, nc)
    return sorted(own.items())


def case_trace_line_numbers_in_loop_and_branches():
    events = []

    def tracer(frame, event, arg):
        if frame.f_code is branchy.__code__:
            events.append((event, frame.f_lineno - branchy.__code__.co_firstlineno))
        return tracer

    sys.settrace(tracer)
    try:
        branchy(4)
    finally:
        sys.settrace(None)
    return events


def branchy(n):
    out = []
    for i in range(n):
        if i % 2:
            out.append(i)
        else:
            try:
                1 / (i - 2)
            except ZeroDivisionError:
                out.append("z")
    while out and len(out) > 3:
        out.pop()
    return out


def case_tracer_sees_locals():
    seen = []

    def tracer(frame, event, arg):
        if frame.f_code is helper.__code__ and event == "line":
            seen.append(dict(frame.f_locals))
        return tracer

    sys.settrace(tracer)
    try:
        helper(3)
    finally:
        sys.settrace(None)
    return seen


def case_tracer_changes_f_lineno_jump():
    """A debugger's 'jump' command: assigning f_lineno from a line event."""

    def jumpy():
        a = 1
        a = 2  # skipped by the jump
        a += 10
        return a

    base = jumpy.__code__.co_firstlineno

    def tracer(frame, event, arg):
        if frame.f_code is jumpy.__code__:
            if event == "line" and frame.f_lineno == base + 2:
                frame.f_lineno = base + 3
            return tracer
        return None

    sys.settrace(tracer)
    try:
        r = jumpy()
    finally:
        sys.settrace(None)
    return r


@factory
def case_gettrace_and_threading_settrace_restore():
    def f():
        before = sys.gettrace()
        sys.settrace(lambda *a: None)
        during = sys.gettrace() is not None
        sys.settrace(None)
        return before, during, sys.gettrace(), helper(4)

    return f


MONITORING = hasattr(sys, "monitoring")    # 3.12+
TOOL = 4                                   # no CPython tool uses this id


def _monitor(events_wanted, code=None):
    """Claim TOOL and record its events of this file's code: (event, code name, line offset);
    with `code`, as local events of that code object only.  Returns (events, stop)."""
    mon = sys.monitoring
    events = []

    def line(code, lineno):
        if code.co_filename == __file__:
            events.append(("line", code.co_name, lineno - code.co_firstlineno))

    def other(name):
        def record(code, *args):
            if code.co_filename == __file__:
                events.append((name, code.co_name))
        return record

    mon.use_tool_id(TOOL, "pyadapt-test")
    mon.register_callback(TOOL, mon.events.LINE, line)
    for name in ("PY_START", "PY_RESUME", "PY_YIELD", "PY_RETURN"):
        mon.register_callback(TOOL, getattr(mon.events, name), other(name))
    if code is None:
        mon.set_events(TOOL, events_wanted)
    else:
        mon.set_local_events(TOOL, code, events_wanted)

    def stop():
        if code is None:
            mon.set_events(TOOL, 0)
        else:
            mon.set_local_events(TOOL, code, 0)
        mon.free_tool_id(TOOL)

    return events, stop


def case_monitoring_local_events_of_a_generator_resumed_from_c():
    """A generator that sum() and list() resume from C (through the PEP 523 hook at each item)
    gets sys.monitoring local events after its first items: the resumes after that are seen,
    line by line, as natively."""
    if not MONITORING:
        return "no sys.monitoring"
    import itertools
    ev = sys.monitoring.events
    g = gen(8)
    first = sum(itertools.islice(g, 3))
    events, stop = _monitor(ev.LINE | ev.PY_RESUME | ev.PY_YIELD | ev.PY_RETURN,
                            code=gen.__code__)
    try:
        rest = list(g)
        again = sum(gen(2))
    finally:
        stop()
    after = list(gen(3))
    return first, rest, again, after, events


def case_monitoring_global_events_switched_on_between_calls():
    """A sys.monitoring tool that starts listening to every code object between two calls
    made from C (map over a Python function): the later calls are seen."""
    if not MONITORING:
        return "no sys.monitoring"
    ev = sys.monitoring.events
    before = list(map(helper, range(3)))
    events, stop = _monitor(ev.PY_START | ev.PY_RETURN | ev.LINE)
    try:
        during = list(map(helper, range(2)))
    finally:
        stop()
    return before, during, list(map(helper, range(2))), events


@pytest.mark.parametrize("case,args,kwargs", collect(globals()))
def test_case(case, args, kwargs):
    if case.__name__.startswith("case_monitoring") and not MONITORING:
        pytest.skip("sys.monitoring is 3.12+")
    run_case(case, args, kwargs)


ASYNC_FOR_TRACED = """
import sys
import _testinternalcapi
import pyadapt

class Wrapper:
    def __init__(self, obj):
        self._it = iter(obj)
    def __aiter__(self):
        return self
    async def __anext__(self):
        try:
            return next(self._it)
        except StopIteration:
            raise StopAsyncIteration

async def loop():
    async for letter in Wrapper("ab"):
        x = letter

def scenario():
    events = []
    def tracer(frame, event, arg):
        events.append((frame.f_code.co_name, frame.f_lineno, event))
        return tracer
    coro = loop()
    try:
        sys.settrace(tracer)
        coro.send(None)
    except StopIteration:
        pass
    finally:
        sys.settrace(None)
    return events

if sys.argv[1] == "hook":
    _testinternalcapi.set_eval_frame_record([])     # another PEP 523 hook, natively
    print(scenario())
else:
    before = pyadapt.stats()["frames"]
    print(pyadapt.run(scenario))
    assert pyadapt.stats()["frames"] > before
"""


def test_async_for_traced_as_under_any_pep523_hook():
    """A traced `async for`: CPython 3.12's and 3.13's SEND run the awaited coroutine inline
    only while no PEP 523 hook is set, and with one report its StopIteration to the tracer as
    one 'exception' event more (regrtest's test_20_async_for_loop, listed by design there).
    pyadapt's events are exactly those of CPython running under any other hook."""
    import subprocess
    outs = {}
    for mode in ("hook", "pyadapt"):
        proc = subprocess.run([sys.executable, "-c", ASYNC_FOR_TRACED, mode],
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        outs[mode] = proc.stdout
    assert outs["hook"] == outs["pyadapt"] and "'call'" in outs["hook"], outs
