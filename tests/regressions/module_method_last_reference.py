# pyadapt regression: use after free, then SIGSEGV: a method call on a module whose only reference
#   is the one on the stack (`holder.pop().f()`), at a site specialized to LOAD_METHOD_MODULE.
# Found by: reading the reference order of every specialized form (issue 10, "no guard is
#   skipped").
# Native: prints the line below.
# Under pyadapt before the fix (adaptive and w0: SIGSEGV; w50 does not specialize in time):
#   LOAD_METHOD_MODULE dropped the module (the stack's reference, the last one: the module, its
#   dict and the attribute only the dict held were freed) and only then took a new reference to
#   the attribute it had read from that dict.  Fixed in csrc/pa_eval.c (LOAD_METHOD_MODULE, and
#   LOAD_METHOD_CLASS likewise, take the new reference first, as LOAD_ATTR_MODULE always did).
# MODES: adaptive generic w0 w50
# EXPECTED-EXIT: 0
# EXPECTED-STDOUT:
#| ['probe 0.0', 'probe 0.28', 'probe 19.28'] 600
import types


class Probe:
    def __init__(self, tag):
        self.tag = tag
        self.pad = [tag] * 4          # a bigger block, so that freed memory is reused

    def __call__(self):
        return self.tag


def make(tag):
    m = types.ModuleType("m")
    m.f = Probe(tag)                  # only the module's dict holds it
    return m


def run(k, n):
    out = []
    holder = [make("probe %d.%d" % (k, n - 1))]
    for i in range(n):
        if i == n - 1:
            out.append(holder.pop().f())   # the stack holds the module's last reference
            junk = [Probe("junk") for _ in range(20)]
            del junk
        else:
            holder[0].f.tag = "probe %d.%d" % (k, i)
            out.append(holder[0].f())
    return out


results = []
for k in range(20):
    results += run(k, 30)
print([results[0], results[29], results[-1]], len(results))
