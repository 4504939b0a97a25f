"""Megamorphic attribute and method loads: LOAD_ATTR_INSTANCE_VALUE_MEGA and
LOAD_METHOD_WITH_VALUES_MEGA read the shared attribute table (csrc/pa_internal.h), one entry
per (type version, name), instead of a site cache.  A polymorphic instance-value load whose
three type slots are taken becomes the first when a fourth type comes; a method load that
specialized for one type and then deoptimized for another becomes the second.  (richards'
four Task subclasses through Task.runnable and Scheduler.schedule.)

Every program is compared with native CPython by harness.check (generic mode, warmups 0, 2
and 50); then it runs adaptively, and pyadapt's stats and disassembly must show the form ran:
its hits, and where the program breaks a guard after the site became megamorphic, its misses
or a refill of the table -- with the native answer each time.
"""
import pytest

import pyadapt
from harness import DEFAULT_CONFIG, check

from pyadapt import _word

ATTR = "LOAD_ATTR_INSTANCE_VALUE_MEGA"
# LOAD_ATTR_INSTANCE_VALUE_MEGA's own type slots: types it met, each in the slot of its
# version modulo 3
MEMO_FIELDS = ("type_version", "descr_lo", "descr_hi")
METHOD = "LOAD_METHOD_WITH_VALUES_MEGA"
EMPTY = {"hits": 0, "misses": 0, "deopts": 0}


def fresh(func):
    """A copy of func with a code object of its own: a unit with no deopt history (the sites of
    a function shared by several tests back off longer after each test that breaks them)."""
    import types
    fresh.made += 1
    code = func.__code__.replace(co_name="%s_%d" % (func.__name__, fresh.made))
    return types.FunctionType(code, func.__globals__, func.__name__, func.__defaults__)


fresh.made = 0


def forms_of(func):
    return {i.opname for i in pyadapt.get_instructions(func)}


def adaptive(func, *args, warmup=2, runs=3):
    """func(*args) `runs` times in adaptive mode: (results, pyadapt.stats()["specialized"],
    func's forms then; configure() afterwards re-quickens)."""
    pyadapt.configure(specialize=True, warmup=warmup)
    try:
        pyadapt.reset_stats()
        results = [pyadapt.run(func, *args) for _ in range(runs)]
        return results, pyadapt.stats()["specialized"], forms_of(func)
    finally:
        pyadapt.configure(**DEFAULT_CONFIG)


def family(base="FNode", sub="F%d", other="FReordered"):
    """Node's family of classes: a base whose __init__ sets v then w, five subclasses sharing
    it (the attributes at the same index), each with a kind(), and a class that sets w first
    (v at another index).  The module's own is N1 ... N5 and Reordered; a test that changes
    classes takes a new family (CPython 3.13 gives a class at most 1,000 versions, and nothing
    of it is left changed for the next test)."""
    def init(self, v):
        self.v = v
        self.w = -v

    def init_reordered(self, v):
        self.w = -v
        self.v = v

    def weight(self):
        return self.w

    node = type(base, (), {"__init__": init, "weight": weight})
    subs = [type(sub % k, (node,), {"kind": lambda self, k=k: k}) for k in range(1, 6)]
    reordered = type(other, (), {"__init__": init_reordered, "weight": weight,
                                 "kind": lambda self: 6})
    return subs + [reordered]


N1, N2, N3, N4, N5, Reordered = family("Node", "N%d", "Reordered")
Node = N1.__base__


def nodes(classes=None):
    """An instance of each class of a family: N1 ... N5 and Reordered, or another family's
    (family())."""
    return [cls(k + 1) for k, cls in enumerate(classes or (N1, N2, N3, N4, N5, Reordered))]


def walk(n):
    objs = nodes()
    t = 0
    for i in range(n):
        o = objs[i % len(objs)]
        t += o.v * o.kind() + o.weight()
    return t


def test_many_types_hit_through_the_table():
    native = check(walk, (120,))
    for warmup in (0, 2, 50):
        results, s, forms = adaptive(walk, 600, warmup=warmup)
        assert results == [walk(600)] * 3, warmup
        assert {ATTR, METHOD} <= forms, (warmup, forms)
        attr, method = s.get(ATTR, EMPTY), s.get(METHOD, EMPTY)
        # every load of o.v from the third run on, and nearly every kind()/weight() call
        assert attr["hits"] >= 600 and attr["misses"] == 0, (warmup, attr)
        assert method["hits"] >= 600 and method["misses"] == 0, (warmup, method)
    assert native == walk(120)


def test_dis_shows_the_forms_without_a_site_cache():
    import io
    out = io.StringIO()
    pyadapt.configure(specialize=True, warmup=2)
    try:
        for _ in range(3):
            pyadapt.run(walk, 120)
        mega = [i for i in pyadapt.get_instructions(walk) if i.opname in (ATTR, METHOD)]
        pyadapt.dis(walk, adaptive=True, show_caches=True, file=out)
    finally:
        pyadapt.configure(**DEFAULT_CONFIG)
    assert mega, forms_of(walk)
    for ins in mega:
        caches = dict(ins.caches)
        if ins.opname == METHOD:
            # the site's own type fields are emptied: the table holds the types
            assert caches.get("type_version") == 0, (ins.opname, caches)
        else:
            # the attribute load's three type slots hold types it met, each in the slot of
            # its version modulo 3, with the attribute's index in its instances (v: 0 in
            # Node's subclasses, 1 in Reordered's; w the other way round)
            slots = [caches[f] for f in MEMO_FIELDS]
            held = [(k, _word.type_slot_version(x), _word.type_slot_index(x))
                    for k, x in enumerate(slots) if x]
            assert held and all(v % 3 == k for k, v, _ in held), (ins.argval, slots)
            assert all(index in (0, 1) for _, _, index in held), held
    text = out.getvalue()
    assert ATTR in text and METHOD in text
    assert "type met: version" in text, text


def break_after(n, change):
    """walk's loop with `change(objs, classes)` run once, halfway; every outcome recorded."""
    objs = nodes()
    out = []
    for i in range(n):
        if i == n // 2:
            change(objs)
        o = objs[i % len(objs)]
        try:
            out.append((o.v, o.kind(), o.weight()))
        except AttributeError as exc:
            out.append(str(exc))
    return out


def materialize_dict(objs):
    vars(objs[2])                              # N3's values move into a dict


def delete_value(objs):
    del objs[3].v                              # an empty slot in N4's values


def property_on_class(objs):
    type(objs[1]).v = property(lambda self: 1000)   # N2: a data descriptor wins over the value


def method_replaced(objs):
    type(objs[0]).kind = lambda self: -1       # N1's version changes: the entry is refilled


def method_shadowed(objs):
    objs[4].kind = lambda: -5                  # an instance attribute hides N5.kind


def class_assigned(objs):
    objs[0].__class__ = type(objs[1])          # an N1 instance read as N2 now


def getattribute_added(objs):
    type(objs[3]).__getattribute__ = lambda self, name: ("ga", name) if name == "v" else \
        object.__getattribute__(self, name)


def base_method_replaced(objs):
    type(objs[0]).__base__.weight = lambda self: 7  # every subclass's version changes


BREAKS = [materialize_dict, delete_value, property_on_class, method_replaced, method_shadowed,
          class_assigned, getattribute_added, base_method_replaced]

_SAVED = {(cls, name): cls.__dict__[name] for cls in (Node, N1, N2, N3, N4, N5)
          for name in ("weight", "kind", "v", "__getattribute__") if name in cls.__dict__}


def _restore():
    # only what differs: each assignment to a class uses up one of its type versions, and
    # CPython 3.13 gives a class no more than 1,000 (then nothing of it specializes)
    for cls in (Node, N1, N2, N3, N4, N5):
        for name in ("weight", "kind", "v", "__getattribute__"):
            if (cls, name) in _SAVED:
                if cls.__dict__.get(name) is not _SAVED[(cls, name)]:
                    setattr(cls, name, _SAVED[(cls, name)])
            elif name in cls.__dict__:
                delattr(cls, name)


@pytest.mark.parametrize("change", BREAKS, ids=lambda f: f.__name__)
def test_guards(change):
    try:
        check(make=lambda: (_restore(), lambda: break_after(240, change))[1])
        _restore()
        want = break_after(240, change)
        _restore()
        pyadapt.configure(specialize=True, warmup=2)
        try:
            pyadapt.reset_stats()
            # twice first, so the sites are megamorphic before the change comes
            walk_, break_after_ = fresh(walk), fresh(break_after)
            pyadapt.run(walk_, 120)
            pyadapt.run(walk_, 120)
            got = pyadapt.run(break_after_, 240, change)
            s = pyadapt.stats()["specialized"]
        finally:
            pyadapt.configure(**DEFAULT_CONFIG)
        assert got == want
        assert s.get(ATTR, EMPTY)["hits"] > 0 and s.get(METHOD, EMPTY)["hits"] > 0, s
    finally:
        _restore()


def memo_walk(n, change, classes=None):
    """o.v over four classes (the site goes megamorphic), then over three -- N1, N3 and
    Reordered, whose v is at another index -- that its own type slots take (as far as their
    versions modulo 3 differ), with `change` run once halfway through the second part; every
    outcome recorded."""
    objs = nodes(classes)
    out = []
    for i in range(n):
        if i == n // 2:
            change(objs)
        o = objs[i % 4] if i < 40 else objs[(0, 2, 5)[i % 3]]
        try:
            out.append((o.v, o.weight()))
        except AttributeError as exc:
            out.append(str(exc))
    return out


def memo_delete_value(objs):
    del objs[0].v                              # an empty slot in an N1 instance's values


def memo_property_on_class(objs):
    type(objs[2]).v = property(lambda self: 1000)   # N3's version changes: its slot is stale


def memo_getattribute_added(objs):
    type(objs[5]).__getattribute__ = lambda self, name: ("ga", name) if name == "v" else \
        object.__getattribute__(self, name)


def memo_class_assigned(objs):
    objs[5].__class__ = type(objs[1])          # a fourth type, v at index 0 where it had 1


MEMO_BREAKS = [materialize_dict, memo_delete_value, memo_property_on_class,
               memo_getattribute_added, memo_class_assigned, base_method_replaced]


def unchanged(objs):
    pass


def hits_of_a_family(walker, n, form, least):
    """walker(n, unchanged, classes) natively and in every mode (check), then three times
    adaptively on a new family each, in a fresh copy of walker: the native answer each time,
    `form` among its forms with at least `least` hits and no miss; the copy."""
    check(make=lambda: (lambda: walker(n, unchanged, family())))
    walker_ = fresh(walker)
    pyadapt.configure(specialize=True, warmup=2)
    try:
        pyadapt.reset_stats()
        for _ in range(3):
            assert pyadapt.run(walker_, n, unchanged, family()) == walker(n, unchanged, family())
        s = pyadapt.stats()["specialized"].get(form, EMPTY)
    finally:
        pyadapt.configure(**DEFAULT_CONFIG)
    assert form in forms_of(walker_)
    assert s["hits"] >= least and s["misses"] == 0, s
    return walker_


def test_own_slots_hold_the_types_met_last():
    walk_ = hits_of_a_family(memo_walk, 240, ATTR, 400)
    # the o.v site: its slots hold types of the second part, each in the slot of its version
    # modulo 3 (two of the three may share one), with v's index in its instances
    ov = [i for i in pyadapt.get_instructions(walk_) if i.opname == ATTR and i.argval == "v"]
    assert len(ov) == 1, ov
    slots = [dict(ov[0].caches)[f] for f in MEMO_FIELDS]
    held = [(k, _word.type_slot_version(x), _word.type_slot_index(x))
            for k, x in enumerate(slots) if x]
    assert held, slots
    assert all(version % 3 == k for k, version, _ in held), held
    assert {index for _, _, index in held} <= {0, 1}, held


def guards_of_a_family(walker, change, form):
    """walker(240, change, classes) on a new family natively and in every mode (check), and
    adaptively after a run without the change, so that the site is megamorphic and holds types
    when the change comes: the native answer, and hits of `form`."""
    check(make=lambda: (lambda: walker(240, change, family())))
    want = walker(240, change, family())
    classes = family()
    pyadapt.configure(specialize=True, warmup=2)
    try:
        pyadapt.reset_stats()
        walker_ = fresh(walker)
        pyadapt.run(walker_, 240, unchanged, classes)
        got = pyadapt.run(walker_, 240, change, classes)
        s = pyadapt.stats()["specialized"]
    finally:
        pyadapt.configure(**DEFAULT_CONFIG)
    assert got == want
    assert s.get(form, EMPTY)["hits"] > 0, s


@pytest.mark.parametrize("change", MEMO_BREAKS, ids=lambda f: f.__name__)
def test_own_slots_guards(change):
    guards_of_a_family(memo_walk, change, ATTR)


def runs_after(n, change, classes=None):
    """break_after's loop with the objects met in runs of four: a megamorphic method load
    then sees the type it saw last, which its table entry kept from the last time answers
    without a lookup."""
    objs = nodes(classes)
    out = []
    for i in range(n):
        if i == n // 2:
            change(objs)
        o = objs[(i // 4) % len(objs)]
        try:
            out.append((o.v, o.kind(), o.weight()))
        except AttributeError as exc:
            out.append(str(exc))
    return out


def test_method_site_keeps_the_entry_it_used_last():
    walk_ = hits_of_a_family(runs_after, 480, METHOD, 600)
    sites = [dict(i.caches) for i in pyadapt.get_instructions(walk_) if i.opname == METHOD]
    assert sites and all(c["descr_lo"] or c["descr_hi"] for c in sites), sites


@pytest.mark.parametrize("change", BREAKS, ids=lambda f: f.__name__)
def test_method_entry_kept_guards(change):
    guards_of_a_family(runs_after, change, METHOD)


def _many_method_sites(k_names):
    """Two classes with k_names methods each, and one function per method name calling it:
    `calls[k](obj)` is `obj.m<k>()`, a method load site of its own."""
    def init(self):
        self.x = 1

    classes = [type(tag, (), {"__init__": init,
                              **{"m%d" % k: (lambda self, k=k, tag=tag: (tag, k))
                                 for k in range(k_names)}})
               for tag in ("A", "B")]
    ns = {}
    exec("\n".join("def f%d(o):\n    return o.m%d()" % (k, k) for k in range(k_names)), ns)
    return classes, [ns["f%d" % k] for k in range(k_names)]


def test_method_entry_kept_is_checked_for_its_name():
    # More (type, name) pairs than the table has entries: an entry a site kept is taken over
    # by another name of the same type, and the site must see that the name differs.
    k_names = 1500          # the table holds 2 x 512 method entries
    (A, B), calls = _many_method_sites(k_names)
    a, b = A(), B()
    pyadapt.configure(specialize=True, warmup=2)
    try:
        def drive():
            out = []
            for f in calls:
                for _ in range(3):
                    f(a)                    # specialized for A ...
                for _ in range(120):
                    r = f(b)                # ... then B misses, deoptimizes and specializes
                out.append(r)               # for B: the site becomes megamorphic
            for f in calls:
                out.append(f(a))            # A's entries, one per name, and each site keeps its own
            for f in calls:
                out.append(f(a))            # many of them taken over by now
            return out

        got = pyadapt.run(drive)
        mega = sum(METHOD in {i.opname for i in pyadapt.get_instructions(f)} for f in calls)
    finally:
        pyadapt.configure(**DEFAULT_CONFIG)
    want = [("B", k) for k in range(k_names)] + [("A", k) for k in range(k_names)] * 2
    assert got == want
    assert mega == k_names, mega


def fresh_classes(n):
    # a new class per iteration (a new type version each time), then many live ones: entries
    # of dead types must never answer for new ones, and colliding entries replace each other
    out = []
    keep = []
    for i in range(n):
        cls = type("C%d" % i, (Node,), {"kind": lambda self, i=i: i})
        keep.append(cls(i))
        o = keep[i % len(keep)] if i % 3 else keep[-1]
        out.append((o.v, o.kind(), o.weight()))
    for o in keep:
        out.append((o.v, o.kind()))
    return out


def test_many_fresh_types():
    check(fresh_classes, (400,))
    results, s, _ = adaptive(fresh_classes, 1500)
    assert results == [fresh_classes(1500)] * 3
    # a fill costs the site's miss budget as a miss does: with a new type every iteration
    # the sites deoptimize every few dozen types and come back
    assert s.get(ATTR, EMPTY)["hits"] > 300 and s.get(METHOD, EMPTY)["hits"] > 300, s


class Slotted:
    __slots__ = ("v", "w")

    def __init__(self, v):
        self.v, self.w = v, -v

    def kind(self):
        return 7

    def weight(self):
        return self.w


def mixed_layouts(n):
    # instances without values (slots, a dict) come to the megamorphic sites: misses, and
    # the native answers
    d = N1(9)
    d.__dict__["extra"] = 1                    # a materialized dict
    objs = nodes() * 4 + [Slotted(8), d]
    t = 0
    for i in range(n):
        o = objs[i % len(objs)]
        t += o.v * o.kind() + o.weight()
    return t


def test_other_layouts_miss():
    check(mixed_layouts, (160,))
    results, s, _ = adaptive(fresh(mixed_layouts), 800)
    assert results == [mixed_layouts(800)] * 3
    attr = s.get(ATTR, EMPTY)
    assert attr["hits"] > 0 and (attr["misses"] > 0 or attr["deopts"] > 0), attr


def test_site_record_names_the_table():
    from pyadapt import _sites

    walk_alone = fresh(walk)    # no other test's guard-breaking in its records
    pyadapt.configure(specialize=True, warmup=2)
    try:
        for _ in range(3):
            pyadapt.run(walk_alone, 120)
        records = {r["form"]: r for r in _sites.site_records([walk_alone.__code__])
                   if r["form"] in (ATTR, METHOD)}
    finally:
        pyadapt.configure(**DEFAULT_CONFIG)
    assert set(records) == {ATTR, METHOD}, records
    # the load became megamorphic at its fourth type, which went into the table; the method
    # load at its second type (the specializer's own result; entries for the types that came
    # later may be in the table already, from other tests)
    attr = [(e["kind"], e["result"]) for e in records[ATTR]["seen"]]
    assert ("another type: into the shared attribute table", "LOAD_ATTR_INSTANCE_VALUE") \
        in attr, attr
    assert METHOD in [e["result"] for e in records[METHOD]["seen"]], records[METHOD]["seen"]
    for form, r in records.items():
        assert r["misses"] == 0 and r["advice"] is None, (form, r)
