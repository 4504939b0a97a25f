# pyadapt regression: code first run during interpreter finalization makes pyadapt's compiler fail
# Found by: tools/regrtest.py, test_threading.ThreadTests.test_dummy_thread_after_fork (stderr not empty)
# Native: prints nothing, exits 0.
# Under pyadapt: at exit, with a thread still alive, code runs that was never compiled
#   (_weakrefset._remove, importlib's _find_and_load, ...).  By then the modules' globals are
#   being cleared, and pyadapt/_compiler.py's compile_for_hook (the compiler was Python then) fails on `except CompileError`
#   (None): "Exception ignored in: <code object _remove ...> ... TypeError: catching classes that
#   do not inherit from BaseException is not allowed", about 4000 lines of it on stderr.
# MODES: adaptive generic
# EXPECTED-EXIT: 0
# EXPECTED-STDOUT:
import _thread
import threading
import time

lock = _thread.allocate_lock()
lock.acquire()


def background():
    threading.current_thread()   # registers a _DummyThread (weakref callbacks at exit)
    lock.release()
    time.sleep(10)


_thread.start_new_thread(background, ())
lock.acquire()
