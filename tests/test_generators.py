"""Generators: yield, yield from (with return values), send/throw/close, StopIteration -> RuntimeError.

The case functions are plain functions that create and drive generators: pyadapt creates the
generator (perhaps through the native loop) and must run every resumption of its frame.
"""

import itertools

import pytest

from harness import collect, entered, factory, run_case


def attempt(thunk):
    try:
        return thunk()
    except Exception as e:  # noqa: BLE001
        return (type(e).__name__, str(e))


def countdown(n):
    while n > 0:
        yield n
        n -= 1
    return "liftoff"


def echo():
    received = []
    try:
        while True:
            value = yield len(received)
            if value == "stop":
                return received
            received.append(value)
    except KeyError as e:
        yield f"caught {e}"
        received.append("after throw")
        yield received
    finally:
        received.append("finally")


@entered(countdown)
def case_simple_generator():
    g = countdown(3)
    first = next(g)
    rest = list(g)
    return first, rest, list(countdown(0)), attempt(lambda: next(g)), sum(countdown(100))


@entered(countdown)
def case_return_value_in_stop_iteration():
    g = countdown(1)
    next(g)
    try:
        next(g)
    except StopIteration as e:
        return e.value, e.args


@entered(echo)
def case_send():
    g = echo()
    out = [g.send(None), g.send("a"), g.send("b")]
    try:
        g.send("stop")
    except StopIteration as e:
        out.append(e.value)
    out.append(attempt(lambda: echo().send("not none first")))
    return out


@entered(echo)
def case_throw_caught_and_close():
    g = echo()
    next(g)
    g.send(1)
    out = [g.throw(KeyError("k")), next(g)]
    g.close()
    out.append(attempt(lambda: next(g)))
    g2 = echo()
    next(g2)
    out.append(attempt(lambda: g2.throw(ValueError("uncaught in gen"))))
    out.append(attempt(lambda: next(g2)))
    g3 = echo()
    out.append(attempt(lambda: g3.throw(KeyError("before start"))))
    return out


def case_throw_traceback_uncaught():
    def gen():
        yield 1
        yield 2

    g = gen()
    next(g)
    g.throw(ValueError("thrown in"))


def case_close_with_finally_and_generator_exit():
    log = []

    def gen():
        try:
            yield 1
            yield 2
        except GeneratorExit:
            log.append("GeneratorExit")
            raise
        finally:
            log.append("finally")

    def stubborn():
        try:
            yield 1
        except GeneratorExit:
            yield "refuses"

    g = gen()
    next(g)
    g.close()
    g.close()
    s = stubborn()
    next(s)
    err = attempt(s.close)
    unstarted = gen()
    unstarted.close()
    return log, err


def case_yield_from_delegation():
    def inner(n):
        total = 0
        for i in range(n):
            x = yield i
            total += x or 0
        return total

    def outer():
        a = yield from inner(3)
        b = yield from inner(2)
        yield from [100, 200]
        yield from "ab"
        return a, b

    g = outer()
    out = [next(g)]
    for _ in range(4):
        out.append(g.send(10))
    try:
        while True:
            out.append(next(g))
    except StopIteration as e:
        out.append(("return", e.value))
    g2 = outer()
    for _ in range(5):
        next(g2)
    out.append(next(g2))
    out.append(attempt(lambda: g2.send("into a list iterator")))
    return out


def case_yield_from_throw_and_close_forwarding():
    log = []

    def inner():
        try:
            yield "inner 1"
            yield "inner 2"
        except ValueError as e:
            log.append(f"inner caught {e}")
            yield "recovered"
        finally:
            log.append("inner finally")

    def outer():
        try:
            r = yield from inner()
            log.append(("inner returned", r))
        finally:
            log.append("outer finally")

    g = outer()
    out = [next(g), g.throw(ValueError("v")), attempt(lambda: next(g))]
    g2 = outer()
    next(g2)
    g2.close()
    return out, log


def case_stop_iteration_inside_generator_becomes_runtime_error():
    def bad():
        yield 1
        raise StopIteration("leaked")

    def bad_next():
        it = iter([])
        yield next(it)

    out = []
    for gen in (bad, bad_next):
        try:
            list(gen())
        except RuntimeError as e:
            out.append((str(e), type(e.__cause__).__name__, str(e.__cause__)))
    return out


def case_stop_iteration_uncaught_chain():
    def bad():
        yield 1
        raise StopIteration("leaked")

    return list(bad())


def case_generator_running_and_states():
    import inspect

    def gen():
        yield inspect.getgeneratorstate(g)
        yield attempt(lambda: next(g))

    g = gen()
    states = [inspect.getgeneratorstate(g)]
    states.append(next(g))
    states.append(inspect.getgeneratorstate(g))
    states.append(next(g))
    states.append(list(g))
    states.append(inspect.getgeneratorstate(g))
    return states, g.gi_frame, g.gi_running


def case_generator_frame_attributes():
    def gen():
        x = 1
        yield x
        x = 2
        yield x

    g = gen()
    base = gen.__code__.co_firstlineno
    out = [g.gi_frame.f_lineno - base, g.gi_code.co_name]
    next(g)
    out += [g.gi_frame.f_lineno - base, dict(g.gi_frame.f_locals), g.gi_frame.f_lasti >= 0]
    next(g)
    out += [g.gi_frame.f_lineno - base, dict(g.gi_frame.f_locals)]
    return out


def case_generator_closures_and_state():
    def counter(step):
        state = {"n": 0}

        def gen():
            while state["n"] < 10:
                state["n"] += step
                yield state["n"]

        return gen, state

    gen, state = counter(3)
    a = gen()
    b = gen()
    return [next(a), next(b), next(a), list(b), state]


def case_infinite_generators_with_itertools():
    def naturals():
        n = 0
        while True:
            yield n
            n += 1

    def primes():
        seen = []
        for n in naturals():
            if n > 1 and all(n % p for p in seen):
                seen.append(n)
                yield n

    return list(itertools.islice(primes(), 30)), list(itertools.takewhile(lambda v: v < 5, naturals())), list(zip(naturals(), "abc"))


def case_generator_in_loops_and_comprehension():
    def squares(n):
        for i in range(n):
            yield i * i

    total = 0
    for _ in range(20):
        for v in squares(20):
            total += v
    return total, [v for v in squares(5)], dict(enumerate(squares(3)))


def case_generator_exceptions_propagate_with_traceback():
    def gen():
        yield 1
        {}["missing"]

    g = gen()
    next(g)
    return next(g)


def case_generator_reentrancy_error():
    def gen():
        yield next(g)

    g = gen()
    return attempt(lambda: next(g))


def case_generator_returning_in_finally():
    def gen():
        try:
            yield 1
        finally:
            return "from finally"  # noqa: B012

    g = gen()
    next(g)
    try:
        g.throw(KeyError("swallowed"))
    except StopIteration as e:
        return e.value


def case_yield_expressions_everywhere():
    def gen():
        x = [(yield 1), (yield 2)]
        d = {"k": (yield 3)}
        f = f"{(yield 4)}"
        return x, d, f

    g = gen()
    out = [next(g)]
    try:
        for v in "abcdef":
            out.append(g.send(v))
    except StopIteration as e:
        out.append(e.value)
    return out


def case_generator_gc_runs_finally():
    log = []

    def gen():
        try:
            yield 1
        finally:
            log.append("cleaned")

    g = gen()
    next(g)
    del g
    return log


@factory
def case_generator_side_effects_order():
    log = []

    def producer():
        for i in range(3):
            log.append(f"produce {i}")
            yield i
        log.append("producer done")

    def consumer():
        for v in producer():
            log.append(f"consume {v}")
        return "ok"

    return consumer, lambda: list(log)


def case_send_many_accumulator():
    def averager():
        total = 0.0
        count = 0
        average = None
        while True:
            term = yield average
            if term is None:
                break
            total += term
            count += 1
            average = total / count
        return count, average

    g = averager()
    next(g)
    avgs = [g.send(v) for v in range(1, 101)]
    try:
        g.send(None)
    except StopIteration as e:
        return avgs[-3:], e.value


def case_generator_objects_as_created():
    # pyadapt makes generator, coroutine and async generator objects itself (RETURN_GENERATOR):
    # everything a program can read of a new one must be native
    import inspect

    def gen(a, b=2):
        c = a + b

        def inner():
            return c
        yield inner()

    async def coro(x):
        return x

    async def agen():
        yield 1

    out = []
    for make in (lambda: gen(1), lambda: coro(3), agen):
        o = make()
        f = getattr(o, "gi_frame", None) or getattr(o, "cr_frame", None) or o.ag_frame
        out.append((type(o).__name__, o.__name__, o.__qualname__, f.f_lasti, f.f_lineno,
                    sorted(f.f_locals), inspect.getgeneratorstate(o) if inspect.isgenerator(o)
                    else inspect.getcoroutinestate(o) if inspect.iscoroutine(o) else None))
        if inspect.iscoroutine(o):
            out.append(attempt(lambda: o.send(None)))
        elif inspect.isgenerator(o):
            out.append(next(o))
        o.close() if not inspect.isasyncgen(o) else None
    return out


def case_coroutine_origin_tracking():
    import sys

    async def coro():
        return 1

    def make():
        return coro()

    old = sys.get_coroutine_origin_tracking_depth()
    sys.set_coroutine_origin_tracking_depth(2)
    try:
        c = make()
        origin = [(line - make.__code__.co_firstlineno if name == "make" else 0, name)
                  for _file, line, name in c.cr_origin]
        c.close()
    finally:
        sys.set_coroutine_origin_tracking_depth(old)
    return origin


def case_generator_creation_fails_cleanly():
    # a generator function whose prologue fails (an unbound free variable is fine; use a
    # default that raises at call time instead): the error comes from the call
    def gen(x):
        yield x

    return attempt(lambda: gen()), attempt(lambda: gen(1, 2)), list(gen(5))


def test_generator_creation_runs_in_pyadapt():
    # creation used to be handed to CPython's loop (the "generator_creation" fallback)
    import pyadapt

    def gen(n):
        yield from range(n)

    def make(k):
        return [sum(gen(3)) for _ in range(k)]

    pyadapt.configure(specialize=True, warmup=2)
    pyadapt.run(make, 1)
    before = pyadapt.unit_info(gen.__code__)["entries"]
    fallbacks = dict(pyadapt.stats()["fallbacks"])
    assert pyadapt.run(make, 50) == make(50)
    # each generator: its creation and four resumptions (three values, then the end)
    assert pyadapt.unit_info(gen.__code__)["entries"] - before == 50 * 5
    assert pyadapt.stats()["fallbacks"] == fallbacks


@pytest.mark.parametrize("case,args,kwargs", collect(globals()))
def test_case(case, args, kwargs):
    run_case(case, args, kwargs)


# ---- speed paths, proved by pyadapt's statistics ----

def _remade_per_call(n):
    """A generator expression and a closure made anew at each iteration, called at one site
    each: their functions share their code's version, so the sites keep hitting."""
    total = 0
    for i in range(n):
        total += sum(x * i for x in (1, 2, 3))
        def add(x):
            return x + i
        total += add(i)
        for k in (j for j in (i, i + 1)):
            total += k
    return total


def test_functions_remade_per_call_keep_hitting():
    import pyadapt
    from harness import check
    check(_remade_per_call, (50,))
    pyadapt.configure(specialize=True, warmup=2)
    pyadapt.run(_remade_per_call, 50)
    pyadapt.reset_stats()
    assert pyadapt.run(_remade_per_call, 300) == _remade_per_call(300)
    s = pyadapt.stats()["specialized"]["CALL_PY_EXACT_ARGS"]
    # three sites (the two generator expressions' and add's) of 300 calls each
    assert s["hits"] >= 3 * 300 and s["misses"] == 0, s
