"""`key in container` (CONTAINS_OP): the forms CONTAINS_OP_DICT (an exact dict) and
CONTAINS_OP_SET (an exact set or frozenset), and each of their guards (docs/architecture.md,
"Guards of every specialized form").

Every case gives native results in generic mode and adaptive warmups 0, 2 and 50
(harness.check); the adaptive run that follows must show the forms under test hit.  The guard
cases let the site specialize, then bring what the guard refuses (tests/test_guards.py's model):
subclasses that override __contains__, other containers, and keys whose __hash__ or __eq__
raises or changes the container while the form looks it up.
"""
import pytest

import pyadapt
from harness import DEFAULT_CONFIG, check
from test_guards import N, loop, native_then_forms_hit, outcome, phases
from test_specializer import opnames


def in_and_not_in(key, container):
    """What `in` and `not in` give, or the exception's type and message."""
    return outcome(lambda: key in container), outcome(lambda: key not in container)


def own_sites(func, name):
    """func with its own code object, so its own sites (units are per code object): one site
    keeps to dicts, another to sets."""
    code = func.__code__.replace(co_name=name,
                                 co_consts=tuple(c.replace() if hasattr(c, "co_code") else c
                                                 for c in func.__code__.co_consts))
    return type(func)(code, func.__globals__, name)


both_d = own_sites(in_and_not_in, "both_d")
both_s = own_sites(in_and_not_in, "both_s")


def contains_hits(n):
    d = {i: i for i in range(0, 10, 2)}
    s = set(range(0, 10, 3))
    fs = frozenset(range(0, 10, 5))
    out = []
    for i in range(n):
        k = i % 10
        out.append((k in d, k not in d, k in s, k not in s, k in fs, k not in fs,
                    str(k) in d, (k, k) in s))
    return out


def adaptive_stats(func, *args):
    """func(*args) three times in the default adaptive mode, from fresh statistics."""
    pyadapt.configure(**DEFAULT_CONFIG)
    pyadapt.reset_stats()
    results = [pyadapt.run(func, *args) for _ in range(3)]
    return results, pyadapt.stats()["specialized"]


def test_dict_set_frozenset_hit():
    native = check(contains_hits, (40,))
    results, specialized = adaptive_stats(contains_hits, 40)
    assert all(r == native for r in results)
    for form in ("CONTAINS_OP_DICT", "CONTAINS_OP_SET"):
        assert specialized[form]["hits"] > 0, (form, specialized.get(form))
        assert specialized[form]["misses"] == 0, (form, specialized[form])
    names = opnames(contains_hits)
    assert names.count("CONTAINS_OP_DICT") == 3, names     # k in d, k not in d, str(k) in d
    assert names.count("CONTAINS_OP_SET") == 5, names
    assert "CONTAINS_OP" not in names and "CONTAINS_OP_ADAPTIVE" not in names, names


def test_generic_mode_runs_the_generic_instruction():
    pyadapt.configure(specialize=False)
    try:
        for _ in range(3):
            pyadapt.run(contains_hits, 10)
        names = opnames(contains_hits)
    finally:
        pyadapt.configure(**DEFAULT_CONFIG)
    assert "CONTAINS_OP" in names
    assert not {"CONTAINS_OP_DICT", "CONTAINS_OP_SET", "CONTAINS_OP_ADAPTIVE"} & set(names)


def site(key, container):
    try:
        return key in container
    except TypeError as e:
        return str(e)


site_s = own_sites(site, "site_s")


def types_switch(n):
    """A dict site and a set site, each an exact type first, then the right operand switching
    to what the guards refuse, and back."""
    others = [[1], DictContains({1: 2}), SetContains({1}), "1", (1,), DictPlain({1: 2}),
              SetPlain({1})] * 3
    out = []
    for c in [{1: 2}] * n + others + [{1: 2}] * n:
        out.append((site(1, c), site(3, c)))
    for c in [{1, 2}] * n + others + [frozenset({1})] * n:
        out.append((site_s(1, c), site_s(3, c)))
    return out


class DictContains(dict):
    def __contains__(self, key):
        return key == 3


class SetContains(set):
    def __contains__(self, key):
        return key == 3


class DictPlain(dict):
    pass


class SetPlain(frozenset):
    pass


def test_container_type_switches_mid_loop_and_misses():
    native = check(types_switch, (N,))
    results, specialized = adaptive_stats(types_switch, N)
    assert all(r == native for r in results)
    assert specialized["CONTAINS_OP_DICT"]["hits"] > 0
    assert specialized["CONTAINS_OP_SET"]["hits"] > 0
    misses = sum(specialized[f]["misses"] for f in ("CONTAINS_OP_DICT", "CONTAINS_OP_SET"))
    assert misses > 0, specialized


def test_specialization_failure_is_named():
    def in_list(n):
        return [i in [1, 2, 3] for i in range(n)]
    check(in_list, (N,))
    pyadapt.configure(**DEFAULT_CONFIG)
    pyadapt.reset_stats()
    pyadapt.run(in_list, N)
    family = pyadapt.stats()["families"]["CONTAINS_OP"]
    assert family["specialized"] == 0 and family["failures"] > 0, family
    assert set(family["failure_kinds"]) == {"container type not specialized"}, family
    names = opnames(in_list)
    assert "CONTAINS_OP_DICT" not in names and "CONTAINS_OP_SET" not in names


# ---- guards broken after specialization: native results, and the forms hit ----

def subclasses_arrive(n):
    """An exact dict / set site, then a subclass overriding __contains__, a plain subclass
    (which must miss too: the guards are exact types), a list, a str."""
    vals = [({1: 2}, {1, 2}), (DictContains({1: 2}), SetContains({1, 2})),
            (DictPlain({1: 2}), SetPlain({1, 2})), ([1, 2], [1, 2]), ("12", "12"),
            ({3: 1}, frozenset({3}))]
    def op(d, s):
        return both_d(1, d) + both_d(3, d) + both_s(1, s) + both_s(3, s)
    return phases(n // 2, vals, op)


class Hash:
    """A key with a chosen hash; __eq__ compares the tag, after calling `on_eq`."""

    def __init__(self, tag, h=7, on_eq=None):
        self.tag, self.h, self.on_eq = tag, h, on_eq

    def __hash__(self):
        if self.h is None:
            raise ValueError("no hash for %r" % (self.tag,))
        return self.h

    def __eq__(self, other):
        if self.on_eq is not None:
            self.on_eq()
        return isinstance(other, Hash) and other.tag == self.tag

    def __repr__(self):
        return "Hash(%r)" % (self.tag,)


def unhashable_keys(n):
    d, s = {1: 1, frozenset({1, 2}): 2}, {1, frozenset({1, 2})}
    out = []
    keys = [1] * (n // 2) + [[1], {1: 2}, {1, 2}, bytearray(b"x"), 1, {3}]
    for k in keys:
        out.append(both_d(k, d) + both_s(k, s) + both_s(k, frozenset(s)))
    return out


def hash_raises(n):
    d, s = {Hash("a"): 1}, {Hash("a")}
    ok, bad = Hash("a"), Hash("a", h=None)
    return loop(n, lambda: both_d(ok, d) + both_s(ok, s),
                lambda: (setattr(ok, "h", None), bad)) + [both_d(bad, d), both_s(bad, s)]


def eq_raises(n):
    def boom():
        raise ZeroDivisionError("eq of a colliding key")
    d, s = {Hash("a"): 1}, {Hash("a")}
    key = Hash("b", h=99)          # no collision: __eq__ not called
    return loop(n, lambda: both_d(key, d) + both_s(key, s),
                lambda: (setattr(key, "h", 7), setattr(key, "on_eq", boom)))


def eq_mutates(n):
    """__eq__ of a colliding key changes the container under the lookup; then a key that
    empties it."""
    d = {Hash("a"): 1, Hash("c", h=8): 3}
    s = {Hash("a"), Hash("c", h=8)}
    counter = [0]
    def grow():
        counter[0] += 1
        d[counter[0]] = counter[0]
        s.add(counter[0])
    def clear():
        d.clear()
        s.clear()
    key = Hash("z", h=100)
    out = loop(n, lambda: both_d(key, d) + both_s(key, s),
               lambda: (setattr(key, "h", 7), setattr(key, "on_eq", grow)))
    key2 = Hash("a", on_eq=clear)
    d[Hash("a")] = 1
    s.add(Hash("a"))
    out += loop(n, lambda: both_d(key2, d) + both_s(key2, s) + (len(d), len(s)),
                lambda: (d.__setitem__(Hash("a"), 1), s.add(Hash("a"))))
    return out, sorted(k for k in d if isinstance(k, int)), len(s)


GUARDS = {
    subclasses_arrive: ["CONTAINS_OP_DICT", "CONTAINS_OP_SET"],
    unhashable_keys: ["CONTAINS_OP_DICT", "CONTAINS_OP_SET"],
    hash_raises: ["CONTAINS_OP_DICT", "CONTAINS_OP_SET"],
    eq_raises: ["CONTAINS_OP_DICT", "CONTAINS_OP_SET"],
    eq_mutates: ["CONTAINS_OP_DICT", "CONTAINS_OP_SET"],
}


@pytest.mark.parametrize("func", list(GUARDS), ids=lambda f: f.__name__)
def test_guard_broken_after_specialization(func):
    native_then_forms_hit(func, GUARDS[func])


def test_subclass_at_a_specialized_site_misses():
    results, specialized = adaptive_stats(subclasses_arrive, N)
    assert all(r == subclasses_arrive(N) for r in results)
    assert specialized["CONTAINS_OP_DICT"]["misses"] > 0, specialized["CONTAINS_OP_DICT"]
    assert specialized["CONTAINS_OP_SET"]["misses"] > 0, specialized["CONTAINS_OP_SET"]


# ---- exceptions that leave the function, raised inside a specialized form ----

def raise_unhashable(n, container):
    t = 0
    for i in range(n):
        t += (i % 3) in container
    return t + ([] in container)


def raise_from_hash(n, container):
    t = 0
    for i in range(n):
        t += (i % 3) not in container
    return t + (Hash("x", h=None) in container)


@pytest.mark.parametrize("func", [raise_unhashable, raise_from_hash])
@pytest.mark.parametrize("container", [{1: 1, 2: 2}, {1, 2}, frozenset({1, 2})],
                         ids=["dict", "set", "frozenset"])
def test_error_leaves_the_form_as_natively(func, container):
    with pytest.raises(Exception) as native:
        func(N, container)
    check(func, (N, container))         # the exception, message and traceback as natively
    pyadapt.configure(**DEFAULT_CONFIG)
    pyadapt.reset_stats()
    for _ in range(3):
        with pytest.raises(type(native.value)) as got:
            pyadapt.run(func, N, container)
        assert str(got.value) == str(native.value)
    form = "CONTAINS_OP_DICT" if type(container) is dict else "CONTAINS_OP_SET"
    assert pyadapt.stats()["specialized"][form]["hits"] > 0


# ---- reference counts balance on every path: hit, miss, generic, error ----

def many_lookups(n, key, containers):
    t = 0
    for c in containers:            # one container at a time: the site specializes, then misses
        for i in range(n):
            try:
                t += key in c
                t += key not in c
            except Exception:      # noqa: BLE001 - the error paths are what is counted
                t -= 1
    return t


@pytest.mark.parametrize("key", [1, [1], Hash("a"), Hash("x", h=None),
                                 Hash("a", on_eq=lambda: 1 / 0)],
                         ids=["hit", "unhashable", "eq", "hash_raises", "eq_raises"])
def test_reference_counts_balance(key):
    import sys
    containers = [{1: 1, Hash("a"): 2}, {1, Hash("a")}, frozenset({1, Hash("a")}),
                  DictPlain({1: 1}), [1]]
    pyadapt.configure(**DEFAULT_CONFIG)
    pyadapt.reset_stats()
    pyadapt.run(many_lookups, 20, key, containers)       # the sites specialize
    before = [sys.getrefcount(o) for o in [key, *containers]]
    pyadapt.run(many_lookups, 200, key, containers)
    after = [sys.getrefcount(o) for o in [key, *containers]]
    assert before == after
    specialized = pyadapt.stats()["specialized"]
    assert specialized["CONTAINS_OP_DICT"]["hits"] + specialized["CONTAINS_OP_DICT"]["misses"] > 0
    assert specialized["CONTAINS_OP_SET"]["hits"] + specialized["CONTAINS_OP_SET"]["misses"] > 0
