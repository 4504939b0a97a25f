# pyadapt regression: use after free, then SIGSEGV: CALL_PY_CLASS ran a class's old __init__
#   after the allocation of the new object had replaced (and freed) it.
# Found by: reading what can run between each specialized form's guards and its use of the
#   cached pointers (issue 10, "no guard is skipped").
# Native: allocating the object can start the cyclic collector, which runs finalizers; this
#   one replaces C.__init__.  type_call looks __init__ up after tp_new, so from then on the new
#   __init__ runs: prints the two lines below.
# Under pyadapt before the fix (adaptive, w0: SIGSEGV; generic is fine): CALL_PY_CLASS checked
#   the class version and __init__'s version, allocated the object, and only then took a
#   reference to the __init__ it had checked -- by then freed.  Fixed in csrc/pa_eval.c
#   (CALL_PY_CLASS holds __init__ across the allocation and, if the class changed meanwhile,
#   finishes the call with the class's tp_init, as type_call does).
# MODES: adaptive generic w0 w50
# EXPECTED-EXIT: 0
# EXPECTED-STDOUT:
#| 9 31 4
#| ['old init', 'old init', 'old init', 'old init', 'old init', 'old init', 'old init', 'old init', 'old init', 'new init', 'new init', 'new init']
# EXPECTED-STDOUT-3.12:
#| 10 30 4
#| ['old init', 'old init', 'old init', 'old init', 'old init', 'old init', 'old init', 'old init', 'old init', 'old init', 'new init', 'new init']
# EXPECTED-STDOUT-3.13:
#| 10 30 4
#| ['old init', 'old init', 'old init', 'old init', 'old init', 'old init', 'old init', 'old init', 'old init', 'old init', 'new init', 'new init']
import gc
class C:
    def __init__(self, v):
        self.v = ("old init", v)
class Trigger:
    def __del__(self):
        # runs inside the allocation of the next object, when the collector runs
        C.__init__ = lambda self, v, tag=len(log): setattr(self, "v", ("new init", v))
        log.append("del")
log = []
out = []
gc.collect()
gc.set_threshold(1)
try:
    for i in range(40):
        if i % 10 == 9:
            t = Trigger()
            t.cycle = t
            del t
        out.append(C(i).v[0])
finally:
    gc.set_threshold(700)
print(out.count("old init"), out.count("new init"), len(log))
print(out[:12])
