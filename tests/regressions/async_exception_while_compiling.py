# pyadapt regression: an exception another thread raises in the main thread
# (PyThreadState_SetAsyncExc, what debuggers, timeouts and test runners use) while code
# objects are first entered, compiled and specialized must reach the program.
#   Found by: issue 10 ("nothing a signal handler or another thread raises is ever lost,
#   whatever pyadapt is doing at that moment"): signals were covered by
#   signal_raised_while_specializing.py and fuzz.py --signals, exceptions from other threads
#   by nothing.  Each round compiles new code objects (the module body of _fresh_modules'
#   template: functions, a class with __init__ and a property, a generator, comprehensions,
#   a match) and runs them while a second thread, after a random short delay, raises Alarm
#   in the main thread.  Every Alarm must arrive in the round's `except`, in the code or in
#   the wait after it, with a traceback of the program's frames only.
# MODES: adaptive generic w0 w2
# EXPECTED-EXIT: 0
# EXPECTED-STDOUT:
#| rounds: 150, alarms set: 150
#| lost: 0
#| tracebacks through the program's frames only: True
import ctypes
import os
import random
import threading
import time

from _fresh_modules import TEMPLATE


class Alarm(BaseException):
    pass


MAIN = threading.main_thread().ident
set_async_exc = ctypes.pythonapi.PyThreadState_SetAsyncExc
set_async_exc.argtypes = (ctypes.c_ulong, ctypes.py_object)
set_async_exc.restype = ctypes.c_int
sent = 0


def fire(delay):
    global sent
    time.sleep(delay)
    sent += set_async_exc(MAIN, Alarm)


def program_file(name):
    return name in (__file__, "<fresh>") or os.path.basename(name) == "threading.py"


def wait_for_alarm(deadline):
    # in a function of its own: CPython 3.13.0 raises an exception set from another thread at
    # a loop's JUMP_BACKWARD where the enclosing `try` of the same frame does not catch it
    # (natively, with no pyadapt: `try: while time.monotonic() < d: pass  except Alarm:` lets
    # Alarm escape; cpython gh-139622 looks like the same bug); raised in this frame, it
    # reaches the caller's `try` on every version
    while time.monotonic() < deadline:       # not delivered yet: it is, here
        pass


rng = random.Random(3)
caught, foreign = 0, set()
ROUNDS = 150
for n in range(ROUNDS):
    code = compile(TEMPLATE.format(n=n), "<fresh>", "exec")    # new code objects every round
    worker = threading.Thread(target=fire, args=(rng.choice((0, 1e-5, 5e-5, 2e-4, 1e-3)),))
    try:
        worker.start()
        exec(code, {})
        wait_for_alarm(time.monotonic() + 10)
    except Alarm as e:
        caught += 1
        tb = e.__traceback__
        while tb is not None:
            if not program_file(tb.tb_frame.f_code.co_filename):
                foreign.add(tb.tb_frame.f_code.co_filename)
            tb = tb.tb_next
    worker.join()
print("rounds: %d, alarms set: %d" % (ROUNDS, sent))
print("lost:", sent - caught)
print("tracebacks through the program's frames only:", not foreign or sorted(foreign))
