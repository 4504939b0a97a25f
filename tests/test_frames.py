"""What code sees of the frames pyadapt runs: f_lasti, f_lineno, f_back chains (through C and through
generator resumption), f_locals, super() reading its cell, handled-exception state, signal handlers
run by the eval breaker at the same point as natively, and module-level / class-body code."""

import signal
import sys

import pytest

from harness import collect, factory, run_case


def attempt(thunk):
    try:
        return thunk()
    except Exception as e:  # noqa: BLE001
        return (type(e).__name__, str(e))


def rel(frame):
    """Name, relative line, and the source span of the instruction at f_lasti.

    Not f_lasti itself: for a frame suspended in a call, CPython 3.11 reports the CALL
    instruction when the call went through C (as it does whenever any frame-evaluation hook is
    installed) and the CALL's last cache entry when its loop inlined the call. Both map to the same
    source span, and the span is what tracebacks and debuggers show.
    """
    code = frame.f_code
    first = code.co_firstlineno
    line, end_line, col, end_col = list(code.co_positions())[frame.f_lasti // 2]
    return code.co_name, frame.f_lineno - first, (line - first, end_line - first, col, end_col)


def case_f_lasti_and_lineno_of_caller_frames():
    def callee():
        f = sys._getframe()
        return [rel(f), rel(f.f_back)]

    first = callee()
    second = [callee() for _ in range(2)]
    return first, second


def case_f_back_through_c_calls():
    def key(v):
        f = sys._getframe()
        chain = []
        while f is not None and f.f_code.co_filename == __file__ and len(chain) < 4:
            chain.append(rel(f))
            f = f.f_back
        return chain

    return sorted([1], key=key), list(map(key, [1])), [key(0)]


def case_generator_f_back_is_the_resumer():
    def gen():
        while True:
            caller = sys._getframe(1)
            yield caller.f_code.co_name, caller.f_lineno - caller.f_code.co_firstlineno

    g = gen()

    def resume_a():
        return next(g)

    def resume_b():
        return g.send(None)

    return [resume_a(), resume_b(), next(g), resume_a(), list(zip(range(2), g))]


def case_suspended_generator_frame_state():
    def gen():
        a = 1
        yield a
        b = a + 1
        yield b

    g = gen()
    states = [(g.gi_frame.f_lasti, g.gi_frame.f_lineno - gen.__code__.co_firstlineno)]
    for _ in g:
        states.append((g.gi_frame.f_lasti, g.gi_frame.f_lineno - gen.__code__.co_firstlineno, sorted(g.gi_frame.f_locals.items())))
    states.append(g.gi_frame)
    return states


def case_callee_reads_caller_locals():
    def peek():
        return sorted((k, v) for k, v in sys._getframe(1).f_locals.items() if isinstance(v, (int, str)))

    x = 1
    y = "two"
    first = peek()
    x = 3
    z = 4  # noqa: F841
    return first, peek()


def case_traceback_frames_hold_locals():
    def fails(a):
        b = a * 2  # noqa: F841
        raise ValueError(a)

    try:
        fails(21)
    except ValueError as e:
        tb = e.__traceback__
        while tb.tb_next:
            tb = tb.tb_next
        return sorted(tb.tb_frame.f_locals.items()), tb.tb_lineno - fails.__code__.co_firstlineno, tb.tb_lasti, tb.tb_frame.f_lasti


def case_super_reads_first_argument_cell():
    class A:
        def m(self):
            return "A.m"

    class B(A):
        def m(self):
            captured = lambda: self  # self lives in a cell  # noqa: E731
            return super().m(), captured() is self

        def deleted(self):
            del self
            return super().m()

        def reassigned(self):
            self = 5  # noqa: F841
            return super().m()

    b = B()
    return b.m(), attempt(b.deleted), attempt(b.reassigned)


def case_exc_info_inside_generator_resumed_in_handler():
    def gen():
        yield sys.exc_info()[0]
        try:
            raise KeyError("inside gen")
        except KeyError:
            yield sys.exc_info()[0]
        yield sys.exc_info()[0]

    g = gen()
    out = [next(g)]
    try:
        raise IndexError
    except IndexError:
        out.append(next(g))
        out.append(sys.exc_info()[0])
        out.append(next(g))
    out.append(sys.exc_info()[0])
    return [t.__name__ if t else None for t in out]


def case_exception_raised_in_generator_chains_callers_context():
    def gen():
        yield 1
        raise ValueError("in gen")

    g = gen()
    next(g)
    try:
        raise KeyError("caller handling")
    except KeyError:
        try:
            next(g)
        except ValueError as e:
            return type(e.__context__).__name__, str(e.__context__)


def case_unwinding_many_frames_with_finally():
    log = []

    def level(n):
        try:
            if n == 0:
                raise LookupError("bottom")
            return level(n - 1)
        finally:
            log.append(n)

    def catcher():
        try:
            level(6)
        except LookupError as e:
            return str(e)

    return catcher(), log


def case_signal_handler_runs_where_natively():
    import _thread

    log = []

    def handler(signum, frame):
        log.append(("handler", frame.f_code.co_name, frame.f_lineno - frame.f_code.co_firstlineno))

    def work():
        for i in range(3):
            if i == 1:
                _thread.interrupt_main(signal.SIGUSR1)
                log.append(("after interrupt_main", i))
            log.append(i)
        j = 0
        _thread.interrupt_main(signal.SIGUSR1)
        while j < 3:
            j += 1
            log.append(("while", j))

    old = signal.signal(signal.SIGUSR1, handler)
    try:
        work()
    finally:
        signal.signal(signal.SIGUSR1, old)
    return log


def case_signal_handler_exception_traceback():
    import _thread

    class Interrupted(Exception):
        pass

    def handler(signum, frame):
        raise Interrupted("from handler")

    def work():
        total = 0
        _thread.interrupt_main(signal.SIGUSR1)
        for i in range(1000):
            total += i
        return total

    old = signal.signal(signal.SIGUSR1, handler)
    try:
        work()
    finally:
        signal.signal(signal.SIGUSR1, old)


def _dying(log, tag):
    """An object whose __del__ logs where its caller's frame is (line, instruction span, f_lasti)."""

    class Dying:
        def __del__(self):
            f = sys._getframe(1)
            log.append((tag, rel(f), f.f_lasti))

    return Dying()


class _Holder:
    pass


def case_object_freed_by_instructions_that_do_not_sync_lasti():
    # The loop writes frame->prev_instr only in handlers that can call out; the others
    # (PURE_TARGET in csrc/pa_eval.c) must still show their own offset to a __del__ that runs
    # when they free the last reference.  Each free happens on its own line, away from the
    # instruction before it.
    log = []
    for _ in range(3):                       # adaptive forms, then specialized forms
        x = _dying(log, "store_fast")
        x = (
            None)
        _dying(log, "pop_top")
        h = _Holder()
        h.a = _dying(log, "store_attr")
        h.a = (
            None)
        v = [_dying(log, "subscr_list"), 1][
            1]
        t = (_dying(log, "unpack"), 2)
        a, b = (
            t)
        del t
        a = None
        for _i in [_dying(log, "for_iter_list"), 1]:
            pass
        if _dying(log, "is_none") is (
                None):
            pass
        o = _Holder()
        o.attr = 5
        r = _Holder.__new__(_Holder)
        r.attr = 6
        v = (
            r).attr
        del r
        w = _Holder()
        w.attr = _dying(log, "attr_owner_freed")
        w = (
            w).attr
        w = None
    return log, v, b


def case_signal_handler_at_a_backward_jump_sees_its_line():
    # the eval-breaker check of a backward jump in a loop of handlers that do not sync
    # prev_instr (specialized: LOAD_FAST, LOAD_ATTR_INSTANCE_VALUE, POP_JUMP_IF_FALSE on a bool)
    log = []
    box = _Holder()
    box.done = False

    def handler(signum, frame):
        if frame.f_lineno == work.__code__.co_firstlineno + 1:
            # Too early: the process was descheduled for the timer's 2 ms before it reached
            # the loop, and the check after the setitimer call ran the handler (natively
            # too). Arm again; only the loop's backward jump is compared.
            signal.setitimer(signal.ITIMER_REAL, 0.002)
            return
        box.done = True
        log.append(("handler", rel(frame), frame.f_lasti))

    def work():
        signal.setitimer(signal.ITIMER_REAL, 0.002)
        while not box.done:
            pass
        return len(log)

    old = signal.signal(signal.SIGALRM, handler)
    try:
        return work(), log
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def case_tracemalloc_lines_of_int_results():
    # int results allocate in handlers that do not sync prev_instr otherwise (csrc/pa_eval.c
    # INT_RESULT; ints have no free list, so every new one is traced): tracemalloc must charge
    # each to its own line.  (Floats and tuples come from free lists whose contents differ
    # from run to run, so they are not compared.)
    import tracemalloc

    def work(n):
        keep = [None] * (3 * n)
        a = 2 ** 29 + 1
        big = 10 ** 30
        for i in range(n):
            keep[3 * i] = (a
                           + a)
            keep[3 * i + 1] = (a
                               * 3)
            keep[3 * i + 2] = (big
                               + i)
        return keep

    tracemalloc.start()
    try:
        kept = work(40)
        snap = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    first = work.__code__.co_firstlineno
    stats = snap.filter_traces([tracemalloc.Filter(True, __file__)]).statistics("lineno")
    return len(kept), sorted((s.traceback[0].lineno - first, s.count) for s in stats
                             if first < s.traceback[0].lineno < first + 12)


def case_module_level_code_via_exec():
    src = """
import math as _m
total = 0
for i in range(5):
    total += i
else:
    done = True
del i
try:
    del never_bound
except NameError as e:
    err = str(e)
class K:
    a = total
    def m(self):
        return __class__.__name__
x: int = 3
def f():
    return total + x
result = (f(), K().m(), K.a, __annotations__, len.__name__)
"""
    ns = {"__name__": "synthetic"}
    exec(compile(src, "<module-src>", "exec"), ns)
    return ns["result"], ns["err"], ns["done"], "i" in ns


def case_module_level_uncaught_traceback():
    src = "a = 1\n\ndef f():\n    return g()\n\ndef g():\n    return undefined_name\n\nf()\n"
    exec(compile(src, "<module-tb>", "exec"), {})


def case_class_body_code():
    log = []

    class A:
        log.append(sorted(k for k in locals() if not k.startswith("__")))
        x = 1
        log.append(sorted(k for k in locals() if not k.startswith("__")))
        y = [x for _ in range(2)] if False else None
        del x
        log.append(sorted(k for k in locals() if not k.startswith("__")))

        def m(self):
            return __class__

    return log, A.y, A().m() is A, hasattr(A, "x")


def case_many_locals_extended_arg():
    names = [f"v{i}" for i in range(300)]
    src = "def f():\n" + "".join(f"    {n} = {i}\n" for i, n in enumerate(names)) + "    return " + " + ".join(names[::7]) + ", v299, v256\n"
    ns = {}
    exec(src, ns)
    return ns["f"]()


def case_deep_expression_stack():
    expr = "x + (" * 90 + "1" + ")" * 90  # right-nested: every operand stays on the stack
    nested_calls = "f(" * 50 + "x" + ")" * 50
    src = f"def g(x):\n    return {expr}\ndef h(x):\n    f = lambda v: v + 1\n    return {nested_calls}\n"
    ns = {}
    exec(src, ns)
    return ns["g"](2), ns["h"](0), ns["g"].__code__.co_stacksize > 50


def case_kwargs_dict_is_copied_for_callee():
    def callee(*args, **kwargs):
        kwargs["added"] = True
        return len(args), sorted(kwargs)

    d = {"a": 1}
    a = [1, 2]
    r = callee(*a, **d)
    return r, d, a


def case_function_redefined_while_running():
    ns = {}
    exec("def f(n):\n    global f\n    if n:\n        exec('def f(n):\\n    return \"new\"', globals())\n        return ('old', f(0))\n    return 'base'\n", ns)
    return ns["f"](1), ns["f"](1)


def case_asyncio_task_stack_frames():
    import asyncio

    async def inner():
        await asyncio.sleep(0)
        task = asyncio.current_task()
        return [f.f_code.co_name for f in task.get_stack() if f.f_code.co_filename == __file__]

    async def outer():
        return await inner()

    return asyncio.run(outer())


@factory
def case_frame_clear_and_generator_close_states():
    def make():
        def gen():
            try:
                yield 1
            finally:
                pass

        def f():
            g = gen()
            next(g)
            fr = g.gi_frame
            err = attempt(fr.clear)
            g.close()
            return err, g.gi_frame

        return f

    return make()


@pytest.mark.parametrize("case,args,kwargs", collect(globals()))
def test_case(case, args, kwargs):
    run_case(case, args, kwargs)
