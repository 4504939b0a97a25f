# pyadapt regression: exceptions raised by signal handlers while pyadapt compiled were lost
# Found by: ../shared/repro/sigint_lost_during_compile.py (issue 10): pyadapt's compiler was
#   Python code; a SIGALRM handler that fired inside it raised there, and compile_for_hook
#   swallowed every BaseException: 989 of 1,000 alarms lost.  Natively none is lost.
# Now the compiler is C (csrc/pa_compile.c) and runs no Python code: a signal that arrives
#   while it runs stays pending and its handler runs at the program's next instruction.
# Also: sys.exit() from a handler (SIGTERM-style) ends the program with its status.
# MODES: adaptive generic w0
# EXPECTED-EXIT: 7
# EXPECTED-STDOUT:
#| alarms raised: True
#| lost: 0
#| handler frames in the program: True
import signal
import sys


class Alarm(Exception):
    pass


raised = caught = 0
armed = False
handler_files = set()


def handler(signum, frame):
    global raised, armed
    handler_files.add(frame.f_code.co_filename)
    if armed:
        armed = False
        raised += 1
        raise Alarm


signal.signal(signal.SIGALRM, handler)
body = "".join("    y%d = x + %d\n" % (j, j) for j in range(80))
signal.setitimer(signal.ITIMER_REAL, 0.0005, 0.0005)
for i in range(600):
    try:
        armed = True
        ns = {}
        exec("def f(x):\n" + body + "    return x\n", ns)   # a new code object: compiled here
        ns["f"](i)
        armed = False
    except Alarm:
        caught += 1
armed = False
signal.setitimer(signal.ITIMER_REAL, 0)
print("alarms raised:", raised > 0)
print("lost:", raised - caught)
# the handler was handed the program's frames only (this file, or <string> for exec'd f)
print("handler frames in the program:", handler_files <= {__file__, "<string>"})


# sys.exit from a handler that fires while fresh code objects are first entered
def stop(signum, frame):
    sys.exit(7)


signal.signal(signal.SIGALRM, stop)
signal.setitimer(signal.ITIMER_REAL, 0.002)
for i in range(100000):
    ns = {}
    exec("def g(x):\n" + body + "    return x\n", ns)
    ns["g"](i)
print("kept running after the handler's sys.exit")
