"""BINARY_SUBSCR_STR_INT: `s[i]` for an exact str of one byte per character (latin-1) and an
exact int 0 <= i < len(s) gives the runtime's cached one-character str, on every version.

Each program is compared with native CPython by harness.check (generic mode, warmups 0, 2 and
50, nested and repeated runs: values, exceptions with their messages and traceback lines).
Then it runs adaptively and pyadapt.stats() must show the form's hits -- and, where the
program breaks a guard after the site specialized, its misses: a fallback that never ran the
form, or a guard that never failed, cannot pass.
"""
import sys

import pytest

import pyadapt
from harness import DEFAULT_CONFIG, check

FORM = "BINARY_SUBSCR_STR_INT"
NOT_LATIN1 = "str not latin-1 (characters wider than one byte)"


def site_forms(func):
    return [i.opname for i in pyadapt.get_instructions(func) if i.family == "BINARY_SUBSCR"]


def adaptive(func, args, warmup=2, runs=3):
    """func(*args) `runs` times in adaptive mode with `warmup`: (results, stats of FORM,
    BINARY_SUBSCR's failure kinds, func's BINARY_SUBSCR sites as they are then -- read before
    configure() quickens every unit again)."""
    pyadapt.configure(specialize=True, warmup=warmup)
    try:
        pyadapt.reset_stats()
        results = [pyadapt.run(func, *args) for _ in range(runs)]
        s = pyadapt.stats()
        forms = site_forms(func)
    finally:
        pyadapt.configure(**DEFAULT_CONFIG)
    form = s["specialized"].get(FORM, {"hits": 0, "misses": 0, "deopts": 0})
    return results, form, s["families"]["BINARY_SUBSCR"]["failure_kinds"], forms


# ---- the hit path ----

def every_character(s, n):
    out = []
    for i in range(n):
        out.append(s[i % len(s)])
    return "".join(out), out


@pytest.mark.parametrize("s", ["abc", "caf\xe9 \xff\x00\x7f\x80", "x"],
                         ids=["ascii", "latin1", "one"])
def test_hit_path(s):
    native = check(every_character, (s, 60))
    for warmup in (0, 1, 2, 50):
        results, form, _, forms = adaptive(every_character, (s, 60), warmup=warmup)
        assert all(r == native for r in results), warmup
        assert form["hits"] >= 60 and form["misses"] == 0, (warmup, form)
        assert forms == [FORM], warmup


def identities(s, n):
    """Whether each character is the object chr() gives for it (the runtime's cached
    one-character str), and sys.getrefcount balance of one of them (3.11 counts
    references to those objects; 3.12+ makes them immortal)."""
    before = sys.getrefcount("\xe9")
    same = []
    for i in range(n):
        c = s[i % len(s)]
        same.append(c is chr(ord(c)))
    del c
    return same, sys.getrefcount("\xe9") - before


def test_result_is_the_cached_character_and_references_balance():
    s = "\xe9t\xe9 \xff"
    native = check(identities, (s, 50))
    assert all(native[0]) and native[1] == 0
    results, form, _, _ = adaptive(identities, (s, 50))
    assert all(r == native for r in results)
    assert form["hits"] > 0


def temporary_strings(n):
    # the stack holds the only reference to the str: the form frees it
    out = []
    for i in range(n):
        out.append((str(i) + "\xe9")[0])
        out.append(("\xfc" * (i % 3 + 1))[i % 3])
    return out


def test_str_freed_by_the_form():
    native = check(temporary_strings, (40,))
    results, form, _, _ = adaptive(temporary_strings, (40,))
    assert all(r == native for r in results)
    assert form["hits"] > 0


def store_into_str(s, n):
    # a store into a str at an int index is no BINARY_SUBSCR: its site must stay generic
    out = []
    for i in range(n):
        out.append(s[i % len(s)])
        try:
            s[i % len(s)] = "x"
        except TypeError as e:
            out.append(str(e))
    return out


def test_store_into_a_str_is_not_the_form():
    native = check(store_into_str, ("ab\xe9", 20))
    assert native[1] == "'str' object does not support item assignment"
    pyadapt.configure(specialize=True, warmup=0)
    try:
        pyadapt.reset_stats()
        assert pyadapt.run(store_into_str, "ab\xe9", 20) == native
        s = pyadapt.stats()
        stores = [i.opname for i in pyadapt.get_instructions(store_into_str)
                  if i.family == "STORE_SUBSCR"]
    finally:
        pyadapt.configure(**DEFAULT_CONFIG)
    assert s["specialized"][FORM]["hits"] > 0
    assert stores == ["STORE_SUBSCR_ADAPTIVE"], stores
    assert s["families"]["STORE_SUBSCR"]["failure_kinds"].get(
        "container type not specialized", 0) > 0


# ---- misses after the site specialized: native results, the generic path ----

class MyStr(str):
    def __getitem__(self, i):
        return "MyStr[%r]" % (i,)


class PlainSub(str):
    pass


class I(int):
    pass


def then(first, later, n):
    """s[i] for (s, i) = first until half-way, then `later`: the same site."""
    out = []
    for k in range(n):
        s, i = first if k < n // 2 else later
        try:
            out.append(s[i])
        except Exception as e:  # noqa: BLE001 - type and message are compared
            out.append("%s: %s" % (type(e).__name__, e))
    return out


MISSES = {
    "not_latin1": ("a\u20ac\U0001f600", 0),     # an ASCII character of a wider str
    "not_latin1_wide_char": ("a\u20ac", 1),
    "negative": ("abc", -1),
    "negative_out_of_range": ("abc", -4),
    "out_of_range": ("abc", 3),
    "empty": ("", 0),
    "big_int": ("abc", 2 ** 40),
    "str_subclass_getitem": (MyStr("abc"), 1),
    "str_subclass": (PlainSub("abc"), 1),
    "bool_index": ("abc", True),
    "int_subclass_index": ("abc", I(2)),
}


@pytest.mark.parametrize("name", list(MISSES))
def test_guard_misses_give_native_results(name):
    args = (("ab\xe9", 2), MISSES[name], 40)
    native = check(then, args)
    if name in ("out_of_range", "empty", "negative_out_of_range"):
        assert native[-1] == "IndexError: string index out of range"
    results, form, _, _ = adaptive(then, args)
    assert all(r == native for r in results)
    assert form["hits"] > 0 and form["misses"] > 0, form


def raise_from_the_site(s, indexes):
    total = []
    for i in indexes:
        total.append(s[i])        # IndexError here, at the specialized site
    return total


def test_index_error_traceback_from_a_specialized_site():
    args = ("\xe9ab", [0, 1, 2, 0, 1, 2, 0, 1, 2, 7])
    check(raise_from_the_site, args)           # message and traceback lines as natively
    pyadapt.configure(specialize=True, warmup=2)
    try:
        pyadapt.reset_stats()
        with pytest.raises(IndexError, match="^string index out of range$"):
            pyadapt.run(raise_from_the_site, *args)
        form = pyadapt.stats()["specialized"][FORM]
    finally:
        pyadapt.configure(**DEFAULT_CONFIG)
    assert form["hits"] > 0 and form["misses"] == 1


# ---- sites that never take the form, with the kind the specializer records ----

def only(s, i, n):
    out = []
    for _ in range(n):
        out.append(s[i])
    return out


@pytest.mark.parametrize("s,i,kind", [
    ("\u20acuro", 1, NOT_LATIN1),
    ("abc", -1, "index negative or out of range"),
    ("abc", True, "operand types not specialized"),
    ("abc", I(1), "operand types not specialized"),
])
def test_failures_are_recorded(s, i, kind):
    native = check(only, (s, i, 30))
    results, form, kinds, _ = adaptive(only, (s, i, 30), warmup=0)
    assert all(r == native for r in results)
    assert form["hits"] == 0
    assert kinds.get(kind, 0) > 0, kinds


def test_generic_mode_runs_no_form():
    pyadapt.configure(specialize=False)
    try:
        pyadapt.reset_stats()
        assert pyadapt.run(every_character, "abc", 10) == every_character("abc", 10)
        hits = pyadapt.stats()["specialized"].get(FORM, {"hits": 0})["hits"]
    finally:
        pyadapt.configure(**DEFAULT_CONFIG)
    assert hits == 0
