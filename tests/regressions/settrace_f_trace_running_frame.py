# pyadapt regression: f_trace set on a frame already running in pyadapt gives no trace events
# Found by: tools/regrtest.py, test_sys_settrace.*.test_09_settrace_and_raise (3 tests)
# Native: the caller, whose f_trace a callee set (as pdb.set_trace() / breakpoint() do for the
#   frame they stop in), reports its exception, line and return events.
# Under pyadapt: the caller keeps running in pyadapt's loop without events: prints [].
#   (docs/architecture.md lists this as a known limit; it breaks pdb.set_trace()/breakpoint().)
# MODES: adaptive generic
# EXPECTED-EXIT: 0
# EXPECTED-STDOUT:
#| [(2, 'exception'), (3, 'line'), (4, 'line'), (5, 'line'), (6, 'line'), (6, 'return')]
import sys

events = []


def tracer(frame, event, arg):
    if frame.f_code.co_name == "caller":
        events.append((frame.f_lineno - caller.__code__.co_firstlineno, event))
    return tracer


def start_tracing_and_raise():
    sys.settrace(tracer)
    sys._getframe().f_back.f_trace = tracer   # what pdb.set_trace() does for its caller
    raise RuntimeError


def caller():
    try:
        start_tracing_and_raise()
    except RuntimeError:
        pass
    x = 1
    return x


caller()
sys.settrace(None)
print(events)
