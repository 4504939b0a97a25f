# pyadapt regression: exceptions raised by signal handlers while code objects are first
# entered, compiled and specialized must all reach the program, through the program's frames.
#   Found by: issue 10 ("signals delivered at random points of compiling, specializing and
#   quickening"); the fuzzer's --signals generator checks the same on random programs.
#   Each round compiles new code objects (a module body with functions, a class with
#   __init__ and a property, a generator, comprehensions, a match) and runs them while
#   SIGALRM fires every 20-300 us.  The handler raises (once per round) only where the eval
#   loop itself runs it -- a RESUME (a function's entry, right after its code object was
#   compiled by pyadapt) or a JUMP_BACKWARD (a loop's back edge, where sites are warming up
#   and specializing; warmups 0 and 2 below) -- so natively nothing can swallow it: every
#   one must arrive in the program's `except`, having passed through the frame the handler
#   was handed, which must be the program's.
# MODES: adaptive generic w0 w2
# EXPECTED-EXIT: 0
# EXPECTED-STDOUT:
#| raised at function entries and at loop edges: True True
#| lost: 0
#| handler's frame in the traceback of what it raised: all
#| frames handed to the handler: only the program's
import opcode
import random
import signal

from _fresh_modules import TEMPLATE


class Alarm(BaseException):
    pass


RESUME, JUMP_BACKWARD = opcode.opmap["RESUME"], opcode.opmap["JUMP_BACKWARD"]
armed = False
raised = {RESUME: 0, JUMP_BACKWARD: 0}
caught = not_in_tb = 0
files = set()


def handler(signum, frame):
    global armed
    files.add(frame.f_code.co_filename)
    op = frame.f_code.co_code[frame.f_lasti]
    if armed and op in raised:
        armed = False
        raised[op] += 1
        raise Alarm(frame)


signal.signal(signal.SIGALRM, handler)
rng = random.Random(1)
for n in range(300):
    code = compile(TEMPLATE.format(n=n), "<fresh>", "exec")   # new code objects every round
    interval = rng.choice((2e-5, 5e-5, 1e-4, 3e-4))
    signal.setitimer(signal.ITIMER_REAL, interval, interval)
    try:
        try:
            armed = True
            exec(code, {})
        finally:
            armed = False
    except Alarm as e:
        caught += 1
        tb, seen = e.__traceback__, False
        while tb is not None:
            seen = seen or tb.tb_frame is e.args[0]
            tb = tb.tb_next
        not_in_tb += not seen
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
print("raised at function entries and at loop edges:", raised[RESUME] > 0, raised[JUMP_BACKWARD] > 0)
print("lost:", sum(raised.values()) - caught)
print("handler's frame in the traceback of what it raised:", "all" if not not_in_tb else not_in_tb)
print("frames handed to the handler:", "only the program's" if files <= {__file__, "<fresh>"} else sorted(files))
