"""Coroutines driven by `send`: generator-based coroutines (`x = yield ...`) in a
producer -> filter -> averager pipeline, and `async def` coroutines awaiting a custom
awaitable, stepped by a small hand-written driver with `coro.send(value)`."""

SIZE = 45_000
TINY = 60


def averager():
    total = 0.0
    count = 0
    average = None
    while True:
        x = yield average
        total += x
        count += 1
        average = total / count


def threshold(limit, target):
    """Forward values above `limit` to `target`; answer with the target's last reply."""
    reply = None
    while True:
        x = yield reply
        if x > limit:
            reply = target.send(x)


class Request:
    """What an async coroutine awaits: the driver sees it, answers it through send()."""

    def __init__(self, op, key, value=None):
        self.op = op
        self.key = key
        self.value = value

    def __await__(self):
        answer = yield self
        return answer


async def load(key):
    return await Request("get", key)


async def store(key, value):
    await Request("put", key, value)


async def transfer(n):
    moved = 0
    for i in range(n):
        a = await load(i % 10)
        b = await load((i + 3) % 10)
        if a >= b:
            await store(i % 10, a - 1)
            await store((i + 3) % 10, b + 1)
            moved += 1
    return moved


def drive(coro, memory):
    answer = None
    try:
        while True:
            req = coro.send(answer)
            if req.op == "get":
                answer = memory.get(req.key, 0)
            else:
                memory[req.key] = req.value
                answer = None
    except StopIteration as stop:
        return stop.value


def run(n):
    avg = averager()
    next(avg)
    filt = threshold(25, avg)
    next(filt)
    last = None
    for i in range(n):
        reply = filt.send((i * 37) % 101)
        if reply is not None:
            last = reply
    memory = {k: k * 5 for k in range(10)}
    moved = drive(transfer(n // 4), memory)
    return round(last, 9), moved, sorted(memory.items())
