# pyadapt regression: on 3.13, a generator resumed inline (FOR_ITER_GEN, SEND_GEN) went on one
# code unit past where it had stopped, and runaway recursion through generators crashed.
#   Found by: issue 11 (tests/test_inline_frames.py's recursion_through_generators, SIGSEGV).
#   start_resumed_frame took 3.11's "last instruction + 1" where 3.13's instr_ptr already is
#   the next instruction (PA_FRAME_NEXT_OFFSET): a new generator skipped its POP_TOP of the
#   sent None, which stayed on its value stack, and a stack at its maximum depth wrote past
#   the generator object (a local read back as the thread state).
# MODES: adaptive generic w0
# EXPECTED-EXIT: 0
# EXPECTED-STDOUT:
#| 1275 1275
#| maximum recursion depth exceeded
#| maximum recursion depth exceeded
#| maximum recursion depth exceeded
#| [0, 1, 2] done
def nested(n, stop):
    if n < stop:
        for x in nested(n + 1, stop):
            yield x
    yield n


def delegating(n, stop):
    if n < stop:
        yield from delegating(n + 1, stop)
    yield n


print(sum(nested(0, 50)), sum(delegating(0, 50)))


def runaway(n):
    for x in runaway(n + 1):
        yield x


def runaway_from(n):
    yield from runaway_from(n + 1)


for start in (runaway, runaway_from, runaway):
    try:
        list(start(0))
    except RecursionError as e:
        print(e)


def deep_stack(n):
    # the value stack at its maximum right after the first resumption
    yield [n, n + 1, n + 2]


def outer():
    for x in deep_stack(0):
        print(x, "done")


outer()
