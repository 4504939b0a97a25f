# pyadapt regression: recursion through cls(...) with a Python __init__ reached twice the native depth.
#   Found by: issue 10 item 4 (../shared/repro/recursion_class_init.py).
#   Natively each level costs two of the recursion limit (the C call of the type, then the
#   __init__ frame); pyadapt's CALL_PY_CLASS ran __init__ inline and charged one (700 levels built).
# MODES: adaptive generic w0
# EXPECTED-EXIT: 0
# EXPECTED-STDOUT:
#| RecursionError at depth 498 - maximum recursion depth exceeded
#| maximum recursion depth exceeded
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
    print("RecursionError at depth", depth, "-", e)
class Inf:
    def __init__(self): Inf()
try:
    Inf()
except RecursionError as e:
    print(e)
