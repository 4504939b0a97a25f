# pyadapt regression: a list iterator that FOR_ITER_LIST had exhausted crashed the process on
#   3.13 when it was used again (next(), list(), __length_hint__, __setstate__).
# Found by: CPython's test_list (test_exhausted_iterator, gh-115733) under tools/regrtest.py on
#   3.13.0 (issue 11): SIGSEGV in adaptive mode.  3.13's list iterator is exhausted when its
#   index is negative and reads its list otherwise; FOR_ITER_LIST released the list and left
#   the index as it was.  Fixed in csrc/pa_seam313.h (PA_LISTITER_EXHAUSTED: the index set to
#   -1 as listiter_next does).
# MODES: adaptive generic w0
# EXPECTED-EXIT: 0
# EXPECTED-STDOUT:
#| ([], [], None, 0, [], [9])
#| rounds 50

def exhaust(seq):
    it = iter(seq)
    other = iter(seq)
    for _ in it:          # FOR_ITER_LIST, once specialized, exhausts `it`
        next(other)
    seq.append(9)
    after = list(it)
    it.__setstate__(0)    # no effect on an exhausted iterator
    return after, list(it), next(it, None), it.__length_hint__(), list(it), list(other)


outs = {repr(exhaust([1, 2, 3])) for _ in range(50)}
print(*outs)
print("rounds", 50)
