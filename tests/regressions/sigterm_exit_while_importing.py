# pyadapt regression: sys.exit() from a SIGTERM handler that fires while modules are imported.
#   Found by: ../shared/repro/sigterm_exit_lost.py (issue 10): pyadapt's compiler was Python
#   code that swallowed every BaseException, so the SystemExit of a handler that fired while
#   it compiled was lost and the program ran on ("kept running after SIGTERM", 3 of 6 tries).
#   That repro sends SIGTERM after a fixed delay during `import sympy`; its delays assumed a
#   slow pyadapt.  This one cannot miss the window: the program imports fresh modules (new
#   code objects, compiled by pyadapt on first entry and specialized) until the signal comes,
#   sent by a timer thread after a random delay, so whenever it lands, it must end the program
#   with the handler's exit status.  A lost SystemExit would run the imports to their cap.
# MODES: adaptive generic w0
# EXPECTED-EXIT: 7
# TIMEOUT: 90
# EXPECTED-STDOUT:
#| importing until SIGTERM
import os
import random
import signal
import sys
import threading
import time

from _fresh_modules import import_fresh, install

signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(7))
install()
print("importing until SIGTERM", flush=True)
threading.Timer(random.uniform(0.05, 0.6), os.kill, (os.getpid(), signal.SIGTERM)).start()
deadline = time.monotonic() + 30
n = 0
while time.monotonic() < deadline:
    import_fresh(n)
    n += 1
print("imports ran to their end: the handler's SystemExit was lost")
