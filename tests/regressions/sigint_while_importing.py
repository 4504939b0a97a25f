# pyadapt regression: Ctrl-C (SIGINT) while modules are imported must interrupt the program.
#   Found by: ../shared/repro/sigint_during_import.py (issue 10): pyadapt's compiler was Python
#   code that swallowed every BaseException, so a KeyboardInterrupt raised while it compiled
#   was lost and `import sympy` ran to its end (3 of 6 tries).  That repro's fixed delays
#   assumed a slow pyadapt.  Here the program imports fresh modules (new code objects,
#   compiled by pyadapt on first entry and specialized) until a timer thread sends SIGINT
#   after a random delay; the default handler's KeyboardInterrupt must reach the program
#   wherever it lands: in the import machinery, a module body, the compile of a new code
#   object, a specialization.  A lost one would run the imports to their cap.
# MODES: adaptive generic w0
# EXPECTED-EXIT: 0
# TIMEOUT: 90
# EXPECTED-STDOUT:
#| importing until SIGINT
#| KeyboardInterrupt reached the program
import os
import random
import signal
import threading
import time

from _fresh_modules import import_fresh, install

install()
# python installs this handler only where SIGINT is not ignored at start (a test runner run
# as a shell's background job passes it on ignored): the program asks for it, as Ctrl-C's
signal.signal(signal.SIGINT, signal.default_int_handler)
print("importing until SIGINT", flush=True)
threading.Timer(random.uniform(0.05, 0.6), os.kill, (os.getpid(), signal.SIGINT)).start()
deadline = time.monotonic() + 30
n = 0
try:
    while time.monotonic() < deadline:
        import_fresh(n)
        n += 1
    print("imports ran to their end: the KeyboardInterrupt was lost")
except KeyboardInterrupt:
    print("KeyboardInterrupt reached the program")
