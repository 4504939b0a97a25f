# pyadapt regression: memory corruption, then SIGSEGV: a __slots__ member descriptor of one class
#   placed on an unrelated class (`borrowed = Class.slot`), read and written through it.
# Found by: CPython's test_opcache (test_load_shadowing_slot_should_raise_type_error,
#   test_store_borrowed_slot_should_not_crash) under python -m pyadapt -m test; issue 10, item 1;
#   reproducer ../shared/repro/borrowed_slot_descriptor.py.
# Native: every load and every store raises TypeError ("descriptor 'slot' for 'Class' objects
#   doesn't apply to a 'Sneaky' object").
# Under pyadapt before 58bbd70 (adaptive, any warmup): once LOAD_ATTR / STORE_ATTR specialized to
#   LOAD_ATTR_SLOT / STORE_ATTR_SLOT the descriptor's owner was never checked: loads returned
#   whatever lay at the slot's offset in the Sneaky object, stores wrote 42 there, and the
#   process died.  Fixed by slot_offset() in csrc/pa_specialize.c (failure kind "member
#   descriptor of a class the object is not an instance of").
# MODES: adaptive generic w0 w50
# EXPECTED-EXIT: 0
# EXPECTED-STDOUT:
#| {'load': {'TypeError': 50}, 'store': {'TypeError': 50}}
# A __slots__ member descriptor of one class placed on an unrelated class
# (CPython's test_opcache.test_load_borrowed_slot_should_not_crash / ..._store_...).
# Natively every access raises TypeError ("descriptor 'slot' for 'Class' objects doesn't
# apply to a 'Sneaky' object").  Under pyadapt, once LOAD_ATTR / STORE_ATTR specialize,
# the type check is skipped: the load reads and the store WRITES raw memory of the
# unrelated object (wrong results, memory corruption, SIGSEGV).
class Class:
    __slots__ = ("slot",)
class Sneaky:
    borrowed = Class.slot
def load(o):
    return o.borrowed
def store(o):
    o.borrowed = 42
o = Sneaky()
results = {"load": {}, "store": {}}
for i in range(50):
    for name, f in (("load", load), ("store", store)):
        try:
            r = f(o)
            key = "returned " + (type(r).__name__ if name == "load" else "OK")
        except TypeError:
            key = "TypeError"
        results[name][key] = results[name].get(key, 0) + 1
print(results)
