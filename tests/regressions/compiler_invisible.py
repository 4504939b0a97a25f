# pyadapt regression: the program could see pyadapt's compiler
# Found by: ../shared/repro/audit_hook_sees_compiler.py, signal_frame_shows_compiler.py,
#   tracemalloc_sees_compiler.py (issue 10; CPython's test_audit failed).  The compiler was
#   Python code: audit hooks got an array.__new__ event per compiled code object, a SIGPROF
#   sampler was handed the compiler's frames, tracemalloc attributed growth to
#   pyadapt/_compiler.py.  Now the compiler is C and runs no Python code.
# MODES: adaptive generic w0
# EXPECTED-STDOUT:
#| audit events: []
#| sampled pyadapt files: []
#| tracemalloc growth in pyadapt files: []
import signal
import sys
import tracemalloc

events = []
sys.addaudithook(lambda e, a: events.append(e) if not e.startswith(("sys.", "exec", "compile")) else None)


def make(i, lines=1):
    ns = {}
    body = "".join("    y%d = x + %d\n" % (j, j) for j in range(lines))
    exec("def f(x):\n" + body + "    return x + %d\n" % i, ns)
    return ns["f"]


for i in range(50):
    make(i)(i)
print("audit events:", sorted(set(events)))

samples = set()


def sampler(signum, frame):
    while frame is not None:
        samples.add(frame.f_code.co_filename)
        frame = frame.f_back


signal.signal(signal.SIGPROF, sampler)
signal.setitimer(signal.ITIMER_PROF, 0.001, 0.001)
for i in range(400):
    make(i, 80)(i)
signal.setitimer(signal.ITIMER_PROF, 0)
print("sampled pyadapt files:", sorted(f for f in samples if "pyadapt" in f))

tracemalloc.start(5)
fs = [make(i) for i in range(200)]
s1 = tracemalloc.take_snapshot()
for f in fs:
    f(1)          # first call of each: pyadapt compiles here
s2 = tracemalloc.take_snapshot()
grew = [st.traceback[0].filename for st in s2.compare_to(s1, "filename") if st.size_diff > 0]
print("tracemalloc growth in pyadapt files:", [f for f in grew if "pyadapt" in f])
