# pyadapt regression: SEGFAULT specializing BINARY_SUBSCR on an object whose (heap) type has no
#   __getitem__: an instance of an int/float subclass, or a class whose metaclass is a heap type,
#   e.g. collections.abc.Sequence[int] (metaclass ABCMeta; the subscript goes to
#   __class_getitem__).
# Found by: python3 tools/fuzz.py --seed 10 (case 1947), reduced by hand; then by
#   tools/regrtest.py --warmup 0, where every module crashes while `test` imports.
# Native: prints the three lines below, exits 0.
# Under pyadapt (adaptive, any warmup; generic mode is fine): SIGSEGV as soon as the instruction
#   specializes.  gdb: simple_function(nargs=2, f=0x0) called from pa_specialize_binary_subscr
#   (csrc/pa_specialize.c), in the Py_TPFLAGS_HEAPTYPE branch: _PyType_Lookup(tp, "__getitem__")
#   returned NULL and it was used without a check.
# MODES: adaptive w0 w50 generic
# EXPECTED-EXIT: 0
# EXPECTED-STDOUT:
#| collections.abc.Sequence[int]
#| 'F' object is not subscriptable
#| 'G' object is not subscriptable
from collections.abc import Sequence


class F(int):
    pass


class G(float):
    pass


def alias():
    for i in range(60):
        r = Sequence[int]
    return r


def main(obj):
    for i in range(60):
        try:
            obj[0]
        except TypeError as e:
            r = str(e)
    return r


print(alias())
print(main(F(2)))
print(main(G(2.5)))
