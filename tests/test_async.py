"""Coroutines and async generators: driven by hand with send/throw, and by asyncio
(tasks, gather, sleep(0), timeouts, cancellation); async with / async for / async comprehensions."""

import asyncio
import types

import pytest

from harness import collect, entered, factory, run_case


def attempt(thunk):
    try:
        return thunk()
    except Exception as e:  # noqa: BLE001
        return (type(e).__name__, str(e))


class Suspend:
    """An awaitable that yields its value to whoever drives the coroutine."""

    def __init__(self, value):
        self.value = value

    def __await__(self):
        received = yield self.value
        return received


async def add_later(a, b):
    x = await Suspend(("need", a))
    y = await Suspend(("need", b))
    return x + y


@entered(add_later, Suspend.__await__)
def case_coroutine_driven_by_send():
    coro = add_later("a", "b")
    out = [coro.send(None), coro.send(10), attempt(lambda: coro.send(5))]
    try:
        coro.send(1)
    except StopIteration as e:
        out.append(("done", e.value))
    except RuntimeError as e:
        out.append(("already", str(e)))
    out.append(attempt(lambda: coro.send(None)))
    return out


def case_coroutine_send_stop_iteration_value():
    async def f():
        return 42

    c = f()
    try:
        c.send(None)
    except StopIteration as e:
        return e.value, c.cr_frame, attempt(lambda: c.send(None))


def case_coroutine_throw_and_close():
    log = []

    async def f():
        try:
            await Suspend(1)
        except KeyError as e:
            log.append(f"caught {e}")
            await Suspend(2)
        finally:
            log.append("finally")
        return "end"

    c = f()
    out = [c.send(None), c.throw(KeyError("k"))]
    c.close()
    c2 = f()
    c2.send(None)
    out.append(attempt(lambda: c2.throw(ValueError("through"))))
    c3 = f()
    c3.close()
    return out, log


def case_coroutine_states_and_await_errors():
    import inspect

    async def f():
        return inspect.getcoroutinestate(c)

    c = f()
    states = [inspect.getcoroutinestate(c)]
    try:
        c.send(None)
    except StopIteration as e:
        states.append(e.value)
    states.append(inspect.getcoroutinestate(c))

    async def await_int():
        await 5

    async def await_bad_awaitable():
        class Bad:
            def __await__(self):
                return 1

        await Bad()

    states.append(attempt(lambda: await_int().send(None)))
    states.append(attempt(lambda: await_bad_awaitable().send(None)))
    return states


def case_types_coroutine_decorator():
    @types.coroutine
    def legacy():
        v = yield "legacy yield"
        return v * 2

    async def modern():
        return await legacy()

    c = modern()
    first = c.send(None)
    try:
        c.send(21)
    except StopIteration as e:
        return first, e.value


# --- asyncio -------------------------------------------------------------------------------------


def case_asyncio_run_simple():
    async def main():
        await asyncio.sleep(0)
        return "main done"

    return asyncio.run(main())


def case_asyncio_gather_order():
    log = []

    async def worker(name, n):
        for i in range(n):
            log.append(f"{name}{i}")
            await asyncio.sleep(0)
        return name * n

    async def main():
        return await asyncio.gather(worker("a", 3), worker("b", 2), worker("c", 1))

    return asyncio.run(main()), log


def case_asyncio_tasks_and_results():
    async def square(x):
        await asyncio.sleep(0)
        return x * x

    async def main():
        tasks = [asyncio.create_task(square(i), name=f"t{i}") for i in range(5)]
        done = [await t for t in tasks]
        return done, [t.get_name() for t in tasks], all(t.done() for t in tasks)

    return asyncio.run(main())


def case_asyncio_exceptions_in_tasks():
    async def fails(i):
        await asyncio.sleep(0)
        raise ValueError(f"task {i} failed")

    async def main():
        results = await asyncio.gather(fails(1), asyncio.sleep(0, "ok"), return_exceptions=True)
        try:
            await asyncio.gather(fails(2), fails(3))
        except ValueError as e:
            first = str(e)
        return [repr(r) for r in results], first

    return asyncio.run(main())


def case_asyncio_uncaught_traceback():
    async def inner():
        await asyncio.sleep(0)
        raise KeyError("from inner coroutine")

    async def main():
        await inner()

    asyncio.run(main())


def case_asyncio_timeouts():
    async def slow():
        await asyncio.sleep(10)
        return "never"

    async def main():
        out = []
        try:
            await asyncio.wait_for(slow(), timeout=0.005)
        except asyncio.TimeoutError as e:
            out.append(("wait_for timeout", type(e).__name__))
        try:
            async with asyncio.timeout(0.005):
                await asyncio.sleep(10)
        except TimeoutError:
            out.append("asyncio.timeout")
        out.append(await asyncio.wait_for(asyncio.sleep(0, "fast"), timeout=5))
        return out

    return asyncio.run(main())


def case_asyncio_cancellation():
    log = []

    async def victim():
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            log.append("victim cancelled")
            raise
        finally:
            log.append("victim finally")

    async def shielded():
        await asyncio.sleep(0)
        return "shield survived"

    async def main():
        t = asyncio.create_task(victim())
        await asyncio.sleep(0)
        t.cancel("stop it")
        try:
            await t
        except asyncio.CancelledError as e:
            log.append(("awaiter saw", e.args))
        log.append((t.cancelled(), t.done()))
        inner = asyncio.create_task(shielded())
        res = await asyncio.shield(inner)
        return res

    return asyncio.run(main()), log


def case_asyncio_task_group():
    async def job(i):
        await asyncio.sleep(0)
        if i == 3:
            raise ValueError("job 3 failed")
        return i

    async def main():
        out = []
        async with asyncio.TaskGroup() as tg:
            tasks = [tg.create_task(job(i)) for i in range(3)]
        out.append([t.result() for t in tasks])
        try:
            async with asyncio.TaskGroup() as tg:
                tg.create_task(job(3))
                tg.create_task(asyncio.sleep(10))
        except* ValueError as eg:
            out.append([str(e) for e in eg.exceptions])
        return out

    return asyncio.run(main())


def case_asyncio_queue_producer_consumer():
    async def producer(q, n):
        for i in range(n):
            await q.put(i)
        await q.put(None)

    async def consumer(q):
        total = []
        while (item := await q.get()) is not None:
            total.append(item * 2)
        return total

    async def main():
        q = asyncio.Queue(maxsize=2)
        _, res = await asyncio.gather(producer(q, 10), consumer(q))
        return res

    return asyncio.run(main())


def case_asyncio_event_and_lock():
    log = []

    async def waiter(ev, name):
        await ev.wait()
        log.append(f"{name} woke")

    async def locked(lock, name):
        async with lock:
            log.append(f"{name} in")
            await asyncio.sleep(0)
            log.append(f"{name} out")

    async def main():
        ev = asyncio.Event()
        lock = asyncio.Lock()
        ws = [asyncio.create_task(waiter(ev, n)) for n in "xy"]
        await asyncio.sleep(0)
        ev.set()
        await asyncio.gather(*ws, locked(lock, "p"), locked(lock, "q"))

    asyncio.run(main())
    return log


def case_asyncio_loop_callbacks():
    log = []

    def cb(tag):
        log.append(tag)

    async def main():
        loop = asyncio.get_running_loop()
        loop.call_soon(cb, "soon")
        fut = loop.create_future()
        loop.call_soon(fut.set_result, "future result")
        log.append(await fut)
        return await loop.run_in_executor(None, sum, [1, 2, 3])

    return asyncio.run(main()), log


# --- async with / async for / async generators ----------------------------------------------------


class AsyncCM:
    def __init__(self, log, suppress):
        self.log = log
        self.suppress = suppress

    async def __aenter__(self):
        self.log.append("aenter")
        await asyncio.sleep(0)
        return self

    async def __aexit__(self, typ, val, tb):
        self.log.append(("aexit", typ.__name__ if typ else None))
        await asyncio.sleep(0)
        return self.suppress


@entered(AsyncCM.__aenter__, AsyncCM.__aexit__)
def case_async_with():
    log = []

    async def main():
        async with AsyncCM(log, False) as cm:
            log.append(type(cm).__name__)
        async with AsyncCM(log, True):
            raise ValueError("suppressed")
        try:
            async with AsyncCM(log, False):
                raise KeyError("propagates")
        except KeyError:
            log.append("caught outside")
        try:
            async with object():
                pass
        except TypeError as e:
            log.append(str(e))
        return "done"

    return asyncio.run(main()), log


class Ticker:
    def __init__(self, n):
        self.n = n

    def __aiter__(self):
        self.i = 0
        return self

    async def __anext__(self):
        if self.i >= self.n:
            raise StopAsyncIteration
        self.i += 1
        await asyncio.sleep(0)
        return self.i


async def agen(n, log):
    try:
        for i in range(n):
            received = yield i
            if received is not None:
                log.append(("received", received))
        log.append("agen exhausted")
    except KeyError as e:
        log.append(f"agen caught {e}")
        yield "after throw"
    finally:
        log.append("agen finally")


@entered(Ticker.__anext__, agen)
def case_async_for_and_async_generators():
    log = []

    async def main():
        out = []
        async for v in Ticker(3):
            out.append(v)
        async for v in agen(3, log):
            out.append(("agen", v))
        else:
            out.append("for-else")
        out.append([v async for v in agen(4, log) if v % 2 == 0])
        out.append({v: v * v async for v in Ticker(3)})
        out.append([await asyncio.sleep(0, x) for x in range(3)])
        return out

    return asyncio.run(main()), log


def case_async_generator_asend_athrow_aclose():
    log = []

    async def main():
        g = agen(5, log)
        out = [await g.asend(None), await g.asend("hello"), await g.athrow(KeyError("k"))]
        await g.aclose()
        try:
            await g.asend(None)
        except StopAsyncIteration:
            out.append("stopped")
        g2 = agen(5, log)
        await g2.__anext__()
        try:
            await g2.athrow(ValueError("uncaught"))
        except ValueError as e:
            out.append(("propagated", str(e)))
        g3 = agen(2, log)
        out.append([x async for x in g3])
        out.append(await anext(agen(1, log), "default"))
        return out

    return asyncio.run(main()), log


def case_async_generator_driven_manually():
    log = []

    async def g():
        x = yield 1
        log.append(x)
        await Suspend("suspended inside agen")
        yield 2

    a = g()
    out = []
    step = a.asend(None)
    try:
        step.send(None)
    except StopIteration as e:
        out.append(("first value", e.value))
    step = a.asend("sent")
    out.append(step.send(None))
    try:
        step.send(None)
    except StopIteration as e:
        out.append(("second value", e.value))
    return out, log


def case_async_generator_errors():
    async def bad():
        yield 1
        raise StopAsyncIteration

    async def main():
        out = []
        try:
            async for _ in bad():
                pass
        except RuntimeError as e:
            out.append(str(e))
        try:
            async for _ in [1, 2]:
                pass
        except TypeError as e:
            out.append(str(e))
        return out

    return asyncio.run(main())


def case_await_in_many_positions():
    async def val(v):
        await asyncio.sleep(0)
        return v

    async def main():
        d = {await val("k"): await val(1)}
        s = f"{await val('fs')}-{await val(2):>3}"
        lst = [await val(i) for i in range(3)]
        total = sum([await val(i) for i in range(4)])
        cond = await val("yes") if await val(True) else await val("no")
        try:
            await val(1) / await val(0)
        except ZeroDivisionError as e:
            err = str(e)
        return d, s, lst, total, cond, err

    return asyncio.run(main())


@factory
def case_async_side_effects():
    log = []

    async def step(n):
        log.append(("start", n))
        await asyncio.sleep(0)
        log.append(("end", n))
        return n

    def run():
        async def main():
            return sum(await asyncio.gather(*(step(i) for i in range(4))))

        return asyncio.run(main())

    return run, lambda: list(log)


@pytest.mark.parametrize("case,args,kwargs", collect(globals()))
def test_case(case, args, kwargs):
    run_case(case, args, kwargs)
