"""Truth tests (3.13's TO_BOOL): the forms TO_BOOL_BOOL, TO_BOOL_INT, TO_BOOL_LIST,
TO_BOOL_NONE, TO_BOOL_STR and TO_BOOL_ALWAYS_TRUE, and each of their guards
(docs/architecture.md, "Guards of every specialized form").

Every case gives native results in generic mode and adaptive warmups 0, 2 and 50
(harness.check, which also fails a run that fell back to the native loop); the adaptive run that
follows must show, through pyadapt.stats() and the instructions as they are now, that the form
under test ran.  The guard cases let a site specialize, then bring what its guard refuses: other
types at the same site, a __bool__ that raises or returns a non-bool, a __len__ returning a
non-int, and a class that gains __bool__ or __len__ (or whose instance changes class) after its
site became TO_BOOL_ALWAYS_TRUE.

CPython 3.11 and 3.12 have no TO_BOOL instruction (a conditional jump tests truth itself), so
there the differential part of each case still runs, and what needs TO_BOOL is skipped.
"""
import opcode
import sys

import pytest

import pyadapt
from harness import DEFAULT_CONFIG, check, diff
from test_specializer import opnames

HAS_TO_BOOL = "TO_BOOL" in opcode.opmap
NO_TO_BOOL = (f"CPython {sys.version_info[0]}.{sys.version_info[1]} has no TO_BOOL instruction "
              "(its conditional jumps test truth themselves)")
FORMS = ("TO_BOOL_BOOL", "TO_BOOL_INT", "TO_BOOL_LIST", "TO_BOOL_NONE", "TO_BOOL_STR",
         "TO_BOOL_ALWAYS_TRUE")
BASE_FORMS = FORMS
FORMS += tuple(form + "_JUMP" for form in FORMS)     # fused with the next POP_JUMP_IF_*
N = 200


def needs_to_bool():
    """Skip what follows on a CPython without TO_BOOL (the caller's native comparison ran)."""
    if not HAS_TO_BOOL:
        pytest.skip(NO_TO_BOOL)


def own_code(func, name):
    """func with a code object of its own (units, and so sites, are per code object)."""
    code = func.__code__.replace(co_name=name, co_qualname=name)
    return type(func)(code, func.__globals__, name, func.__defaults__, func.__closure__)


def both(specialized, form):
    """The hits, misses and deopts of a form and of its _JUMP form (fused with the next
    POP_JUMP_IF_*, as at `if x:`), summed."""
    a, b = specialized[form], specialized[form + "_JUMP"]
    return {k: a[k] + b[k] for k in ("hits", "misses", "deopts")}


def adaptive_run(func, *args):
    """func(*args) three times in the default adaptive mode, from fresh statistics: the
    results, the stats of the specialized forms, and the TO_BOOL family's."""
    pyadapt.configure(**DEFAULT_CONFIG)
    pyadapt.reset_stats()
    results = [pyadapt.run(func, *args) for _ in range(3)]
    stats = pyadapt.stats()
    return results, stats["specialized"], stats["families"].get("TO_BOOL")


class Plain:
    """No __bool__, no __len__: every instance is true (TO_BOOL_ALWAYS_TRUE)."""


def truths(values):
    """Each truth test 3.13 compiles to TO_BOOL, over the same values: `if`, `not`, `and`,
    `or`, a conditional expression, `while` and a comprehension's `if`."""
    out = []
    for x in values:
        if x:
            out.append(1)
        else:
            out.append(0)
        out.append(not x)
        out.append(bool(x and 1))
        out.append((x or "falsy") is x)
        out.append("t" if x else "f")
        k = 0
        while x and k < 1:
            k += 1
        out.append(k)
    out.append(len([v for v in values if v]))
    return out


# each program its own copy of truths(), so that its sites see one type whatever ran before
truths_of = {kind: own_code(truths, "truths_" + kind)
             for kind in ("bool", "int", "list", "none", "str", "plain")}


def cycle(pattern, n):
    """n values, pattern repeated."""
    return (pattern * (n // len(pattern) + 1))[:n]


def bools(n):
    return truths_of["bool"]([i % 3 == 0 for i in range(n)])


def ints(n):
    return truths_of["int"](cycle([0, 1, -1, 7, 2 ** 30, -(2 ** 30), 2 ** 100, -(2 ** 100)], n))


def lists(n):
    return truths_of["list"](cycle([[], [0], [None, None], list(range(40))], n))


def nones(n):
    return truths_of["none"]([None] * n)


def strs(n):
    empty = "abc"[3:]
    return truths_of["str"](cycle(["", "a", "\xe9t\xe9", "\U0001f600", empty, "x" * 50, str(n)], n))


def instances(n):
    return truths_of["plain"]([Plain() for _ in range(n)])


KIND = {"TO_BOOL_BOOL": "bool", "TO_BOOL_INT": "int", "TO_BOOL_LIST": "list",
        "TO_BOOL_NONE": "none", "TO_BOOL_STR": "str", "TO_BOOL_ALWAYS_TRUE": "plain"}
PROGRAMS = {bools: "TO_BOOL_BOOL", ints: "TO_BOOL_INT", lists: "TO_BOOL_LIST",
            nones: "TO_BOOL_NONE", strs: "TO_BOOL_STR", instances: "TO_BOOL_ALWAYS_TRUE"}


@pytest.mark.parametrize("func", list(PROGRAMS), ids=lambda f: PROGRAMS[f])
def test_form_runs_with_native_results(func):
    form = PROGRAMS[func]
    native = check(func, (N,))
    needs_to_bool()
    results, specialized, family = adaptive_run(func, N)
    assert all(diff(r, native) is None for r in results), [diff(r, native) for r in results]
    for name in (form, form + "_JUMP"):       # `not x` / every other truth test
        assert specialized[name]["hits"] > 0, (name, specialized[name], family)
        assert specialized[name]["misses"] == 0, (name, specialized[name])
    assert family["failures"] == 0, family
    names = opnames(func) + opnames(truths_of[KIND[form]])
    # every TO_BOOL site of truths() that ran is the form (with None values, the second test
    # of `while x and ...` never runs: 7 of 8), fused with its jump but for `not x`
    assert names.count(form) == 1, names
    assert names.count(form + "_JUMP") >= 6, names


def test_dis_shows_the_forms_and_the_class_version():
    check(instances, (N,))
    needs_to_bool()
    pyadapt.configure(**DEFAULT_CONFIG)
    pyadapt.run(instances, N)
    import io
    out = io.StringIO()
    pyadapt.dis(truths_of["plain"], adaptive=True, show_caches=True, file=out)
    text = out.getvalue()
    assert "TO_BOOL_ALWAYS_TRUE" in text, text
    assert "type_version" in text, text
    versions = [i for i in pyadapt.get_instructions(truths_of["plain"])
                if i.opname.startswith("TO_BOOL_ALWAYS_TRUE")]
    assert versions


def test_generic_mode_runs_the_generic_instruction():
    check(ints, (N,))
    needs_to_bool()
    pyadapt.configure(specialize=False)
    try:
        pyadapt.reset_stats()
        for _ in range(3):
            pyadapt.run(ints, N)
        names = opnames(truths_of["int"])
        family = pyadapt.stats()["families"]["TO_BOOL"]
    finally:
        pyadapt.configure(**DEFAULT_CONFIG)
    assert "TO_BOOL" in names
    assert not set(FORMS + ("TO_BOOL_ADAPTIVE",)) & set(names), names
    assert family["specialized"] == 0 and family["failures"] == 0, family


# ---- failures: what stays with PyObject_IsTrue, and why ----

class WithLen:
    def __len__(self):
        return 1


class WithBool:
    def __bool__(self):
        return False


class ListSub(list):
    pass


def failing(values):
    return [1 if v else 0 for v in values]


@pytest.mark.parametrize("values, kind", [
    ([{}, {1: 2}, (), (1,), 0.0, 1.5, b"", b"x", 0j, frozenset(), range(0)],
     "truth of a builtin type not specialized"),
    ([WithLen(), WithBool(), ListSub(), ListSub([1])], "class defines its truth (__bool__ or __len__)"),
], ids=["builtins", "classes"])
def test_specialization_failure_is_named(values, kind):
    site = own_code(failing, "failing_" + kind.split()[0])
    values = values * (N // len(values))
    native = check(site, (values,))
    needs_to_bool()
    results, specialized, family = adaptive_run(site, values)
    assert all(diff(r, native) is None for r in results), [diff(r, native) for r in results]
    assert family["specialized"] == 0 and family["failures"] > 0, family
    assert set(family["failure_kinds"]) == {kind}, family
    names = opnames(site)
    assert not set(FORMS) & set(names), names


# ---- guards broken after specialization ----

def test_site_sees_bool_then_int_then_list_subclass():
    """One site: bools until it is TO_BOOL_BOOL, then ints (misses, a deopt, TO_BOOL_INT), then
    list subclasses, which fail to specialize ("class defines its truth"), then bools again."""
    def truth(x):
        if x:
            return "yes"
        return "no"

    class Lst(list):
        pass

    class LstBool(list):
        def __bool__(self):
            return True

    def phases(n):
        values = ([i % 2 == 0 for i in range(n)] + [i % 3 for i in range(n)]
                  + [Lst(), Lst([1]), LstBool(), LstBool([1])] * (n // 4)
                  + [i % 2 == 1 for i in range(n)])
        return [truth(v) for v in values]

    native = check(phases, (N,), also=(truth,))
    needs_to_bool()
    results, specialized, family = adaptive_run(phases, N)
    assert all(diff(r, native) is None for r in results), [diff(r, native) for r in results]
    assert both(specialized, "TO_BOOL_BOOL")["hits"] > 0, both(specialized, "TO_BOOL_BOOL")
    assert both(specialized, "TO_BOOL_BOOL")["misses"] > 0, both(specialized, "TO_BOOL_BOOL")
    assert both(specialized, "TO_BOOL_INT")["hits"] > 0, both(specialized, "TO_BOOL_INT")
    assert both(specialized, "TO_BOOL_INT")["misses"] > 0, both(specialized, "TO_BOOL_INT")
    assert "class defines its truth (__bool__ or __len__)" in family["failure_kinds"], family


class BoolRaises:
    def __bool__(self):
        raise ZeroDivisionError("no truth here")


class BoolNotBool:
    def __bool__(self):
        return 1


class LenNotInt:
    def __len__(self):
        return "three"


class LenNegative:
    def __len__(self):
        return -1


class LenHuge:
    def __len__(self):
        return 2 ** 70


def guarded(x):
    if x:
        return "t"
    return "f"


def test_errors_of_truth_at_specialized_sites():
    """Each specialized form's site, then an object whose truth raises: __bool__ raising or
    returning an int, __len__ returning a str, a negative or a too large int.  The traceback's
    line numbers and messages are compared with native ones (harness.check)."""
    bad = [BoolRaises(), BoolNotBool(), LenNotInt(), LenNegative(), LenHuge()]
    warm = {"bool": True, "int": 5, "list": [1], "none": None, "str": "s", "plain": Plain()}

    def errors(n):
        out = []
        for name, good in warm.items():
            site = SITES[name]
            for i in range(n):
                out.append(site(good))
            for b in bad:
                try:
                    out.append(site(b))
                except Exception as e:  # noqa: BLE001 - compared with native
                    out.append((type(e).__name__, str(e), e.__traceback__.tb_next.tb_lineno))
            out.append(site(good))
        return out

    native = check(errors, (N // 4,), also=tuple(SITES.values()))
    needs_to_bool()
    results, specialized, _family = adaptive_run(errors, N // 4)
    assert all(diff(r, native) is None for r in results), [diff(r, native) for r in results]
    for form in BASE_FORMS:
        assert both(specialized, form)["hits"] > 0, (form, both(specialized, form))
        assert both(specialized, form)["misses"] > 0, (form, both(specialized, form))


SITES = {name: own_code(guarded, "guarded_" + name)
         for name in ("bool", "int", "list", "none", "str", "plain")}


def test_class_gains_bool_after_specialization():
    """TO_BOOL_ALWAYS_TRUE's guard is the class's version: __bool__ set on the class, __len__
    set on a base, __bool__ deleted again, and an instance moved to another class by
    __class__ assignment all change what the site must answer."""
    def make():
        class Base:
            pass

        class C(Base):
            pass

        class Other:
            def __bool__(self):
                return False

        objs = [C() for _ in range(4)]
        site = own_code(guarded, "guarded_gains")

        def run():
            out = [site(o) for _ in range(N // 4) for o in objs]
            C.__bool__ = lambda self: False
            out += [site(o) for _ in range(N // 4) for o in objs]
            del C.__bool__
            out += [site(o) for _ in range(N // 4) for o in objs]
            Base.__len__ = lambda self: 0
            out += [site(o) for _ in range(N // 4) for o in objs]
            del Base.__len__
            out += [site(o) for _ in range(N // 4) for o in objs]
            objs[0].__bool__ = lambda: False        # an instance attribute: no effect
            out += [site(o) for _ in range(N // 4) for o in objs]
            objs[1].__class__ = Other
            out += [site(o) for _ in range(N // 4) for o in objs]
            return out
        return run

    check(make=make)
    needs_to_bool()
    pyadapt.configure(**DEFAULT_CONFIG)
    pyadapt.reset_stats()
    run = make()
    want = make()()
    assert pyadapt.run(run) == want
    stats = both(pyadapt.stats()["specialized"], "TO_BOOL_ALWAYS_TRUE")
    assert stats["hits"] > 0, stats
    assert stats["misses"] > 0, stats       # the guard saw the class change


def test_bool_added_to_class_flips_a_hot_site():
    """The simplest form of the case above, with the site's form read before and after."""
    class K:
        pass

    site = own_code(guarded, "guarded_flip")

    def before(n):
        return [site(K()) for _ in range(n)]

    check(before, (N,), also=(site,))
    needs_to_bool()
    pyadapt.configure(**DEFAULT_CONFIG)
    pyadapt.reset_stats()
    assert pyadapt.run(before, N) == ["t"] * N
    assert "TO_BOOL_ALWAYS_TRUE_JUMP" in opnames(site)
    K.__bool__ = lambda self: False
    assert pyadapt.run(before, N) == ["f"] * N
    stats = both(pyadapt.stats()["specialized"], "TO_BOOL_ALWAYS_TRUE")
    assert stats["hits"] > N // 2 and stats["misses"] > 0, stats
    assert not any(n.startswith("TO_BOOL_ALWAYS_TRUE") for n in opnames(site))


# ---- what a form releases: finalizers, reference counts ----

class Finalized:
    """No truth of its own (TO_BOOL_ALWAYS_TRUE); its finalizer records the instruction of the
    frame that dropped it, which the form must have written (f_lasti, f_lineno)."""
    seen = []

    def __del__(self):
        f = sys._getframe(1)
        Finalized.seen.append((f.f_code.co_name, f.f_lineno, f.f_lasti))


def drop_in_truth(n):
    Finalized.seen = []
    out = []
    for i in range(n):
        if Finalized():
            out.append(i)
        if [Finalized()]:
            out.append(-i)
    return out, Finalized.seen


def test_finalizer_run_by_a_form_sees_the_truth_test():
    native = check(drop_in_truth, (N // 4,))
    needs_to_bool()
    results, specialized, _family = adaptive_run(drop_in_truth, N // 4)
    assert all(diff(r, native) is None for r in results), [diff(r, native) for r in results]
    assert both(specialized, "TO_BOOL_ALWAYS_TRUE")["hits"] > 0
    assert both(specialized, "TO_BOOL_LIST")["hits"] > 0


def refcounts(n):
    """The reference counts of non-immortal values of each form's type are as before the loop."""
    values = [2 ** 100, [1, 2], "abc" * (n + 1), Plain(), -(2 ** 70), [], "xyz"[3:] + "q"]
    before = [sys.getrefcount(v) for v in values]
    t = 0
    for v in values:
        for _ in range(n):
            if v:
                t += 1
            if not v:
                t -= 1
    del v
    after = [sys.getrefcount(v) for v in values]
    return t, [a - b for a, b in zip(after, before)]


def test_reference_counts_balance():
    native = check(refcounts, (N,))
    assert native[1] == [0] * 7
    needs_to_bool()
    results, specialized, _family = adaptive_run(refcounts, N)
    assert all(diff(r, native) is None for r in results), [diff(r, native) for r in results]
    for form in ("TO_BOOL_INT", "TO_BOOL_LIST", "TO_BOOL_STR", "TO_BOOL_ALWAYS_TRUE"):
        assert both(specialized, form)["hits"] > 0, form
