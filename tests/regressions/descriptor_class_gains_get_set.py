# pyadapt regression: a class attribute whose own class later gains __get__ or __set__ was still
#   treated as a plain value (LOAD_ATTR_CLASS, LOAD_METHOD_CLASS) or skipped over by the store
#   (STORE_ATTR_INSTANCE_VALUE).
# Found by: reading the guards of every specialized form (issue 10, "no guard is skipped").
# Native: `V.__get__ = ...` makes every instance of V a descriptor at once: C.x calls it, C.x()
#   calls what it returns, and `o.y = i` calls V.__set__ from then on.
# Under pyadapt before the fix (adaptive, any warmup): the forms guard only the version of the
#   class holding the attribute (C), which does not change when V does: C.x kept returning the
#   V instance, C.x() kept calling V.__call__, and the store kept writing o.__dict__.  Fixed in
#   csrc/pa_specialize.c (descr_class_fixed: only an attribute of an immutable class is cached
#   or stepped over; failure kind "class attribute of a mutable class").
# MODES: adaptive generic w0 w50
# EXPECTED-EXIT: 0
# EXPECTED-STDOUT:
#| load {'V': 20, 'str': 20}
#| method {'called V': 20, 'bound': 20}
#| store 20 {'y': 19}


class V:
    def __call__(self):
        return "called V"


class C:
    x = V()
    y = V()


def tally(seq):
    out = {}
    for k in seq:
        out[k] = out.get(k, 0) + 1
    return out


def load(n):
    out = []
    for i in range(n):
        if i == n // 2:
            V.__get__ = lambda self, obj, tp: "got"
        out.append(type(C.x).__name__)
    del V.__get__
    return tally(out)


def method(n):
    out = []
    for i in range(n):
        if i == n // 2:
            V.__get__ = lambda self, obj, tp: (lambda: "bound")
        out.append(C.x())
    del V.__get__
    return tally(out)


def store(n, o):
    log = []
    for i in range(n):
        if i == n // 2:
            V.__set__ = lambda self, obj, val: log.append(val)
        o.y = i
    del V.__set__
    return len(log), vars(o)


print("load", load(40))
print("method", method(40))
print("store %d %s" % store(40, C()))
