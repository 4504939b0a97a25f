# pyadapt regression: what pyadapt keeps per code object is invisible to the program
# Found by: CPython's test_descr ClassPropertiesAndMethods.test_slots (gc.get_objects() grew
#   by one object when a method first ran: a weak reference pyadapt made to learn that the
#   code object died).  pyadapt's units live in its own table, and it learns of a code
#   object's death from the code type's deallocator, so no object, weak reference or extra
#   slot of pyadapt's is reachable from the program.
# MODES: adaptive generic w0
# EXPECTED-STDOUT:
#| gc objects grew by 0
#| weak references to the code: 0 []
#| referrers of the code: ['dict', 'function']
import gc
import weakref


class G:
    def __eq__(self, other):
        return False


g = G()
gc.collect()
before = len(gc.get_objects())
for i in range(10):
    g == g
print("gc objects grew by", len(gc.get_objects()) - before)

code = G.__eq__.__code__
print("weak references to the code:", weakref.getweakrefcount(code), weakref.getweakrefs(code))
print("referrers of the code:", sorted(type(r).__name__ for r in gc.get_referrers(code)))

