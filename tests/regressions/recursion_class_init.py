# pyadapt regression: recursion through cls(...) with a Python __init__ reached twice the native depth.
#   Found by: issue 10 item 4 (../shared/repro/recursion_class_init.py).
#   Natively each level costs two of the recursion limit (the C call of the type, then the
#   __init__ frame); pyadapt's CALL_PY_CLASS ran __init__ inline and charged one (700 levels built).
# MODES: adaptive generic w0
# 3.13 specializes Node(n + 1) at its second call (CALL_ALLOC_AND_ENTER_INIT), and then each
#   call costs two Python levels (a shim frame's and __init__'s), the generic call one: the
#   depth reached tells how many calls ran before the site specialized.  pyadapt's
#   CALL_PY_CLASS costs the same two, its generic call one, so only the mode that specializes
#   at once or nearly does reaches native's depth (the default warmup, 2, runs one more call
#   generic; generic mode builds the 700 levels).  Where the thread's data stack chunk ends
#   moves it by a level or two too (a call whose shim does not fit there is generic, natively
#   and in pyadapt), and the stack under the program differs under python -m pyadapt: 3.13
#   prints the depth to the nearest ten (498-504 is "about 500").
# MODES-3.13: adaptive w0
# EXPECTED-EXIT: 0
# EXPECTED-STDOUT:
#| RecursionError at depth 498 - maximum recursion depth exceeded
#| maximum recursion depth exceeded
# EXPECTED-STDOUT-3.13:
#| RecursionError at depth about 500 - maximum recursion depth exceeded
#| maximum recursion depth exceeded
import sys
depth = 0
class Node:
    def __init__(self, n):
        global depth
        depth = n
        if n < 700:
            self.child = Node(n + 1)
try:
    Node(0)
    print("built 700 levels")
except RecursionError as e:
    print("RecursionError at depth",
          depth if sys.version_info < (3, 13) else f"about {round(depth, -1)}", "-", e)
class Inf:
    def __init__(self): Inf()
try:
    Inf()
except RecursionError as e:
    print(e)
