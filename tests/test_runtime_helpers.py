"""Differential tests of pyadapt's runtime helpers against the running CPython: the
match statement's look-ups (csrc/pa_match.c) and the except/except* machinery
(csrc/pa_excgroup.c), reached through the C core's builtins.

Each helper stands in for a hidden CPython C helper.  The tests run the same
situation natively (a ``match`` statement, a ``try/except*``, an ``except``) and
through the helper, and compare what can be observed: results and the identity
of the objects in them, exception types and messages, exception group structure
(type, message, the list/tuple the group was built from, traceback, cause,
context, ``__suppress_context__``, notes, identity of the leaves), and the side
effects (attribute look-ups, ``get`` and ``derive`` calls) in order.
"""

import collections
import collections.abc
import datetime
import functools
import struct
import sys
import types

import pytest


# MATCH_CLASS and MATCH_KEYS (csrc/pa_match.c), CHECK_EXC_MATCH, CHECK_EG_MATCH and
# PREP_RERAISE_STAR (csrc/pa_excgroup.c) are C, reached through the core's builtins
from pyadapt import _pyadapt as _core  # noqa: E402


# --------------------------------------------------------------------------- #
# shared helpers
# --------------------------------------------------------------------------- #

class Same:
    """Compares equal to a Same wrapping the very same object."""

    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj

    def __eq__(self, other):
        return isinstance(other, Same) and self.obj is other.obj

    def __hash__(self):
        return id(self.obj)

    def __repr__(self):
        return "Same(%r @ %#x)" % (self.obj, id(self.obj))


def outcome(fn, *args):
    """('ok', value) or ('err', type, message)."""
    try:
        return ("ok", fn(*args))
    except Exception as e:
        return ("err", type(e), str(e))


def same_values(a, b):
    """Element-wise: identical, or equal with the same type."""
    if a is None or b is None:
        return a is b
    if len(a) != len(b):
        return False
    return all(x is y or (type(x) is type(y) and x == y) for x, y in zip(a, b))


def assert_same_outcome(native, mine):
    assert native[0] == mine[0], (native, mine)
    if native[0] == "err":
        assert native[1:] == mine[1:]
    else:
        assert type(native[1]) is type(mine[1])
        assert same_values(native[1], mine[1]), (native, mine)


def describe(exc):
    """Everything observable about an exception (group), objects by identity."""
    if exc is None:
        return None
    if not isinstance(exc, BaseExceptionGroup):
        return ("leaf", Same(exc))
    notes = exc.__dict__.get("__notes__")
    return (
        "group",
        type(exc),
        exc.message,
        repr(exc),
        type(exc.args[1]),
        Same(exc.__traceback__),
        Same(exc.__cause__),
        Same(exc.__context__),
        exc.__suppress_context__,
        None if notes is None else (type(notes), list(notes)),
        [describe(e) for e in exc.exceptions],
    )


def raised(exc):
    """``exc`` after being raised and caught (so it carries a traceback)."""
    try:
        raise exc
    except BaseException as e:
        return e


# --------------------------------------------------------------------------- #
# match_class
# --------------------------------------------------------------------------- #

@functools.lru_cache(maxsize=None)
def _class_pattern_fn(nargs, names):
    pos = ["p%d" % i for i in range(nargs)]
    kws = ["%s=k%d" % (n, i) for i, n in enumerate(names)]
    caps = pos + ["k%d" % i for i in range(len(names))]
    src = (
        "def f(subject, C):\n"
        "    match subject:\n"
        "        case C(%s):\n"
        "            return (%s)\n"
        "    return None\n" % (", ".join(pos + kws), "".join(c + ", " for c in caps))
    )
    ns = {}
    exec(compile(src, "<class-pattern>", "exec"), ns)
    return ns["f"]


def native_match_class(subject, cls, nargs, names):
    return _class_pattern_fn(nargs, tuple(names))(subject, cls)


def check_class(subject, cls, nargs, names=(), log=None):
    if log is not None:
        log.clear()
    native = outcome(native_match_class, subject, cls, nargs, names)
    native_log = list(log) if log is not None else None
    if log is not None:
        log.clear()
    mine = outcome(_core._match_class, subject, cls, nargs, tuple(names))
    assert_same_outcome(native, mine)
    if log is not None:
        assert native_log == log
    return native


class Point:
    __match_args__ = ("x", "y")

    def __init__(self, x=1, y=2):
        self.x = x
        self.y = y


class NoArgs:
    a = "A"


class ListArgs:
    __match_args__ = ["a"]
    a = 1


class TupleSub(tuple):
    pass


class TupleSubArgs:
    __match_args__ = TupleSub(("a",))
    a = 1


class StrSub(str):
    pass


class StrSubArgs:
    __match_args__ = (StrSub("a"),)
    a = 1


class IntArgs:
    __match_args__ = ("a", 5)
    a = 1


class MissingThenBad:
    __match_args__ = ("missing", 5)


class Dup:
    __match_args__ = ("a", "b")
    a = 1
    b = 2


class OneArg:
    __match_args__ = ("a",)
    a = 1


class Logged:
    __match_args__ = ("a", "b", "c")
    log = []

    def __getattr__(self, name):
        Logged.log.append(name)
        if name.startswith("no"):
            raise AttributeError(name)
        return "<%s>" % name


class Raising:
    __match_args__ = ("boom",)

    @property
    def boom(self):
        raise ValueError("boom")

    @property
    def attr_err(self):
        raise AttributeError("nope")

    @property
    def attr_err_sub(self):
        raise ModuleNotFoundError("not an AttributeError")


class MyAttrError(AttributeError):
    pass


class RaisingSub:
    @property
    def a(self):
        raise MyAttrError("sub")


class MetaMatchArgsError(type):
    @property
    def __match_args__(cls):
        raise KeyError("meta")


class MetaArgs(metaclass=MetaMatchArgsError):
    pass


class MetaMatchArgsAttrError(type):
    @property
    def __match_args__(cls):
        raise AttributeError("meta says none")


class MetaNoArgs(metaclass=MetaMatchArgsAttrError):
    pass


class IntWithArgs(int):
    __match_args__ = ("real",)


class IntEmptyArgs(int):
    __match_args__ = ()


class IntSub(int):
    pass


class DictSub(dict):
    pass


class InstanceCheckAll(type):
    def __instancecheck__(cls, obj):
        return True


class Anything(metaclass=InstanceCheckAll):
    __match_args__ = ("real",)


class InstanceCheckRaises(type):
    def __instancecheck__(cls, obj):
        raise RuntimeError("instancecheck")


class Never(metaclass=InstanceCheckRaises):
    pass


class Renamed:
    __match_args__ = ()


Renamed.__name__ = "NewName"


class Outer:
    class Inner:
        __match_args__ = ("a",)
        a = 1


class Ünïcode:
    __match_args__ = ()


class FakeClass:
    """An instance pretending to be a type through __class__."""

    @property
    def __class__(self):
        return type


class TestMatchClass:

    def test_not_a_type(self):
        for cls in (3, "str", None, Point(), FakeClass(), int.__add__):
            check_class(1, cls, 0)
            check_class(1, cls, 1)
        # 3.12 says "a class" where 3.11 says "a type"; check_class compared both sides already
        word = "type" if sys.version_info < (3, 12) else "class"
        assert check_class(1, 3, 0) == ("err", TypeError, "called match pattern must be a " + word)

    def test_isinstance_fails(self):
        assert check_class(1, str, 0) == ("ok", None)
        check_class(1, Point, 2)
        check_class(Point(), NoArgs, 5, ("a",))   # bad nargs not checked on a mismatch
        check_class(1, ListArgs, 1)

    def test_isinstance_hooks(self):
        check_class(5, Anything, 1)       # __instancecheck__ says yes: attributes of 5
        check_class("s", Anything, 1)     # ... and "s" has no .real: no match
        check_class(1, Never, 0)          # errors from __instancecheck__ propagate

    def test_positional_and_keywords(self):
        p = Point([1], [2])
        n = check_class(p, Point, 2)
        assert n[1][0] is p.x and n[1][1] is p.y
        check_class(p, Point, 1, ("y",))
        check_class(p, Point, 0, ("y", "x"))
        check_class(p, Point, 0, ())
        check_class(p, Point, 0, ("z",))          # missing keyword attribute: no match
        check_class(p, Point, 1, ("z", "y"))

    def test_too_many_positional(self):
        assert check_class(Point(), Point, 3)[2] == "Point() accepts 2 positional sub-patterns (3 given)"
        assert check_class(OneArg(), OneArg, 2)[2] == "OneArg() accepts 1 positional sub-pattern (2 given)"
        assert check_class(NoArgs(), NoArgs, 1)[2] == "NoArgs() accepts 0 positional sub-patterns (1 given)"
        check_class(NoArgs(), NoArgs, 0, ("a",))

    def test_match_args_type(self):
        assert check_class(ListArgs(), ListArgs, 1)[2] == "ListArgs.__match_args__ must be a tuple (got list)"
        check_class(TupleSubArgs(), TupleSubArgs, 1)
        check_class(ListArgs(), ListArgs, 0, ("a",))     # not consulted without positionals

    def test_match_args_elements(self):
        assert check_class(IntArgs(), IntArgs, 2)[2] == "__match_args__ elements must be strings (got int)"
        check_class(IntArgs(), IntArgs, 1)                # the bad element is not reached
        check_class(StrSubArgs(), StrSubArgs, 1)           # str subclasses are refused too
        check_class(MissingThenBad(), MissingThenBad, 2)   # the missing attribute wins: no match

    def test_duplicates(self):
        n = check_class(Dup(), Dup, 1, ("a",))
        assert n == ("err", TypeError, "Dup() got multiple sub-patterns for attribute 'a'")
        check_class(Dup(), Dup, 2, ("b",))
        check_class(Dup(), Dup, 2, ("c", "a"))
        check_class(Outer.Inner(), Outer.Inner, 1, ("a",))   # tp_name, not __qualname__
        check_class(Renamed(), Renamed, 1)                   # __name__ reassigned
        check_class(Ünïcode(), Ünïcode, 1)

    def test_match_self(self):
        for subject, cls in [
            (5, int), (True, bool), (True, int), (1.5, float), ("s", str), (b"b", bytes),
            (bytearray(b"x"), bytearray), ({1: 2}, dict), (frozenset({1}), frozenset),
            ([1], list), ({1}, set), ((1,), tuple), (IntSub(3), IntSub), (IntSub(3), int),
            (DictSub(a=1), DictSub), (collections.OrderedDict(a=1), collections.OrderedDict),
            (collections.defaultdict(int), dict),
        ]:
            n = check_class(subject, cls, 1)
            assert n[0] == "ok" and n[1][0] is subject
            check_class(subject, cls, 0)
            check_class(subject, cls, 1, ("real",) if isinstance(subject, (int, float)) else ("count",))
            check_class(subject, cls, 2)
        assert check_class(5, int, 2)[2] == "int() accepts 1 positional sub-pattern (2 given)"
        assert (check_class(collections.OrderedDict(), collections.OrderedDict, 2)[2]
                == "collections.OrderedDict() accepts 1 positional sub-pattern (2 given)")
        check_class(5, int, 1, ("real",))        # self plus a keyword: no duplicate check
        check_class(5, int, 1, ("nope",))

    def test_match_self_lost_by_match_args(self):
        check_class(IntWithArgs(7), IntWithArgs, 1)
        check_class(IntWithArgs(7), IntWithArgs, 1, ("real",))   # duplicate via __match_args__
        check_class(IntEmptyArgs(7), IntEmptyArgs, 1)
        check_class(7 + 1j, complex, 1)

    def test_static_and_spec_type_names(self):
        d = datetime.date(2000, 1, 2)
        assert check_class(d, datetime.date, 1)[2] == "datetime.date() accepts 0 positional sub-patterns (1 given)"
        s = struct.Struct("i")
        check_class(s, struct.Struct, 1)
        check_class(range(3), range, 1)
        check_class(range(3), range, 0, ("start", "stop"))

    def test_attribute_errors(self):
        r = Raising()
        check_class(r, Raising, 1)                          # ValueError propagates
        check_class(r, Raising, 0, ("attr_err",))           # AttributeError: no match
        check_class(r, Raising, 0, ("attr_err_sub",))       # ImportError propagates
        check_class(RaisingSub(), RaisingSub, 0, ("a",))     # AttributeError subclass: no match
        check_class(MetaArgs(), MetaArgs, 1)                 # __match_args__ look-up error
        check_class(MetaNoArgs(), MetaNoArgs, 1)             # AttributeError: as if absent
        check_class(MetaNoArgs(), MetaNoArgs, 0)

    def test_lookup_order(self):
        log = Logged.log
        check_class(Logged(), Logged, 3, ("d", "e"), log=log)
        check_class(Logged(), Logged, 1, ("nothere", "e"), log=log)   # stops at the first miss
        check_class(Logged(), Logged, 2, ("no_x", "a"), log=log)
        check_class(Logged(), Logged, 2, ("a",), log=log)             # duplicate after look-ups


# --------------------------------------------------------------------------- #
# match_keys
# --------------------------------------------------------------------------- #

@functools.lru_cache(maxsize=None)
def _mapping_pattern_fn(n):
    pats = ", ".join("K.k%d: v%d" % (i, i) for i in range(n))
    vals = "".join("v%d, " % i for i in range(n))
    src = (
        "def f(subject, K):\n"
        "    match subject:\n"
        "        case {%s}:\n"
        "            return (%s)\n"
        "    return None\n" % (pats, vals)
    )
    ns = {}
    exec(compile(src, "<mapping-pattern>", "exec"), ns)
    return ns["f"]


def native_match_keys(subject, keys):
    K = types.SimpleNamespace(**{"k%d" % i: k for i, k in enumerate(keys)})
    return _mapping_pattern_fn(len(keys))(subject, K)


def check_keys(subject, keys, log=None):
    # MATCH_KEYS runs after MATCH_MAPPING and the length check; keep to subjects
    # that pass both so that the native run reaches MATCH_KEYS.
    assert type(subject).__flags__ & (1 << 6) and len(subject) >= len(keys)
    if log is not None:
        log.clear()
    native = outcome(native_match_keys, subject, tuple(keys))
    native_log = list(log) if log is not None else None
    if log is not None:
        log.clear()
    mine = outcome(_core._match_keys, subject, tuple(keys))
    assert_same_outcome(native, mine)
    if log is not None:
        assert native_log == log
    return native


class LoggingMapping(collections.abc.Mapping):
    def __init__(self, data, log):
        self.data = data
        self.log = log

    def __getitem__(self, key):
        self.log.append(("getitem", key))
        return self.data[key]

    def __iter__(self):
        return iter(self.data)

    def __len__(self):
        return len(self.data)

    def get(self, key, default=None):
        self.log.append(("get", key, type(default).__name__))
        return self.data.get(key, default)


class RaisingGetMapping(LoggingMapping):
    def get(self, key, default=None):
        self.log.append(("get", key))
        if key == "bad":
            raise LookupError("bad key")
        return super().get(key, default)


class NoGet:
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, key):
        raise KeyError(key)

    def __iter__(self):
        return iter(())


collections.abc.Mapping.register(NoGet)


class Reprs:
    def __init__(self, text):
        self.text = text

    def __hash__(self):
        return 1

    def __eq__(self, other):
        return isinstance(other, Reprs)

    def __repr__(self):
        return self.text


class BadRepr(Reprs):
    def __repr__(self):
        raise RuntimeError("repr failed")


class TestMatchKeys:

    def test_dict(self):
        v = object()
        d = {"a": v, "b": [2], 3: 4, (1, 2): None}
        n = check_keys(d, ("a", "b"))
        assert n[1][0] is v
        check_keys(d, ("a",))
        check_keys(d, (3, (1, 2)))
        check_keys(d, ("a", "zz"))
        check_keys(d, ("zz", "a"))
        check_keys(d, ())
        check_keys(d, (1.0 + 2, 3))  # 3.0 == 3

    def test_missing_does_not_call_missing(self):
        dd = collections.defaultdict(list, a=1, b=2)
        check_keys(dd, ("a", "nope"))
        assert "nope" not in dd
        c = collections.Counter(a=1, b=2)
        check_keys(c, ("a", "x"))

    def test_duplicates(self):
        d = {1: "x", 2: "y", 3: "z"}
        assert check_keys(d, (1, 1)) == ("err", ValueError, "mapping pattern checks duplicate key (1)")
        check_keys(d, (1, 2, 1.0))           # equal across types
        check_keys(d, (True, 1))
        check_keys(d, ("zz", "zz"))          # the first key misses: no match, no error
        check_keys(d, (1, "zz", 1))          # miss before the duplicate
        check_keys({1: 1, 2: 2}, (Reprs("<weird repr>"), Reprs("other")))
        check_keys({1: 1, 2: 2}, (BadRepr("x"), BadRepr("y")))   # repr error replaces ValueError

    def test_unhashable(self):
        d = {1: 1, 2: 2}
        check_keys(d, ([1],))
        check_keys(d, ({1},))
        check_keys(d, (1, {}))

    def test_get_protocol(self):
        log = []
        m = LoggingMapping({"a": 1, "b": 2, "c": 3}, log)
        check_keys(m, ("a", "c"), log=log)
        check_keys(m, ("a", "x", "c"), log=log)   # stops at the first miss
        check_keys(m, ("a", "a"), log=log)
        r = RaisingGetMapping({"a": 1, "bad": 2}, log)
        check_keys(r, ("a", "bad"), log=log)

    def test_get_lookup(self):
        log = []
        m = LoggingMapping({"a": 1, "b": 2}, log)
        m.get = lambda key, default: ("instance get", key)   # the instance attribute wins
        check_keys(m, ("a",), log=log)
        check_keys(NoGet(2), ("a",))                        # no get: AttributeError
        assert _core._match_keys(NoGet(2), ()) == ()             # no keys: get not needed


# --------------------------------------------------------------------------- #
# except / except* type checks
# --------------------------------------------------------------------------- #

class MyGroup(ExceptionGroup):
    pass


class MyTuple(tuple):
    pass


class FakeExcClass:
    @property
    def __class__(self):
        return type


BAD_AND_GOOD_TYPES = [
    ValueError, Exception, BaseException, KeyboardInterrupt, (ValueError, TypeError), (),
    3, object, "ValueError", None, ValueError(), (ValueError, 3), (ValueError, (TypeError,)),
    [ValueError], MyTuple((ValueError,)), MyTuple((3,)), FakeExcClass(),
    ExceptionGroup, BaseExceptionGroup, MyGroup, (ValueError, ExceptionGroup),
    (MyGroup,), MyTuple((BaseExceptionGroup,)), (ExceptionGroup, 3),
]


def native_except(exc, typ):
    try:
        try:
            raise exc
        except typ:
            return "caught"
    except BaseException as e:
        if e is exc:
            return "uncaught"
        return ("err", type(e), str(e))


def native_except_star(exc, typ):
    caught = []
    try:
        try:
            raise exc
        except* typ:
            caught.append(True)
    except BaseException as e:
        if isinstance(e, TypeError) and e is not exc:
            return ("err", type(e), str(e))
        return "uncaught"
    return "caught" if caught else "nothing"


class TestExceptTypeChecks:

    @pytest.mark.parametrize("typ", BAD_AND_GOOD_TYPES, ids=repr)
    def test_except(self, typ):
        native = native_except(ValueError("v"), typ)
        mine = outcome(_core._check_except_type_valid, typ)
        if isinstance(native, tuple):
            assert mine == native
        else:
            assert mine == ("ok", None)

    @pytest.mark.parametrize("typ", BAD_AND_GOOD_TYPES, ids=repr)
    def test_except_star(self, typ):
        native = native_except_star(ValueError("v"), typ)
        mine = outcome(_core._check_except_star_type_valid, typ)
        if isinstance(native, tuple):
            assert mine == native
        else:
            assert mine == ("ok", None)

    def test_messages(self):
        with pytest.raises(TypeError) as info:
            _core._check_except_star_type_valid(MyGroup)
        assert str(info.value) == ("catching ExceptionGroup with except* is not allowed. "
                                   "Use except instead.")
        with pytest.raises(TypeError) as info:
            _core._check_except_type_valid((ValueError, int))
        assert str(info.value) == ("catching classes that do not inherit from BaseException "
                                   "is not allowed")


# --------------------------------------------------------------------------- #
# try/except*: CHECK_EG_MATCH and PREP_RERAISE_STAR, replayed
# --------------------------------------------------------------------------- #

class Capture:
    def __init__(self):
        self.matches = {}
        self.raised = {}
        self.result = "unset"


def reraise_in_helper():
    raise   # a bare raise in another frame: the traceback grows, so it counts as new


def raise_it(exc):
    raise exc


@functools.lru_cache(maxsize=None)
def _star_fn(snippets):
    lines = [
        "def scenario(orig, types, cap):",
        "    try:",
        "        try:",
        "            raise orig",
    ]
    for i, snippet in enumerate(snippets):
        lines += [
            "        except* types[%d] as e:" % i,
            "            cap.matches[%d] = describe(e)" % i,
            "            try:",
            "                " + snippet,
            "            except BaseException as x:",
            "                cap.raised[%d] = x" % i,
            "                raise",
        ]
    lines += [
        "    except BaseException as r:",
        "        cap.result = r",
        "        cap.result_description = describe(r)",
        "        return",
        "    cap.result = None",
        "    cap.result_description = None",
    ]
    ns = {
        "describe": describe,
        "reraise_in_helper": reraise_in_helper,
        "raise_it": raise_it,
        "__builtins__": __builtins__,
    }
    exec(compile("\n".join(lines) + "\n", "<except-star>", "exec"), ns)
    return ns["scenario"]


def replay(orig, clauses, cap, compare_matches=True):
    """What the C loop does with the helpers, fed the handlers' own raises."""
    exc = orig
    excs = []
    for i, (typ, _snippet) in enumerate(clauses):
        _core._check_except_star_type_valid(typ)
        match, rest = _core._exception_group_match(exc, typ)
        if match is None:
            assert i not in cap.matches, "the native clause %d ran" % i
            continue
        assert i in cap.matches, "the native clause %d did not run" % i
        if compare_matches:
            assert describe(match) == cap.matches[i], "match of clause %d" % i
        exc = rest
        if i in cap.raised:
            excs.append(cap.raised[i])
    excs.append(exc)
    return _core._prep_reraise_star(orig, excs)


def check_star(make_orig, clauses, compare_matches=True):
    """Run ``try: raise orig / except* T: snippet ...`` natively and replayed.

    ``compare_matches=False`` when a handler changes ``orig`` itself (``raise e``
    on a full match gives ``orig`` a new traceback), so that the replay, which
    runs afterwards, cannot see the match as it was.
    """
    orig = make_orig()
    cap = Capture()
    fn = _star_fn(tuple(s for _, s in clauses))
    fn(orig, [t for t, _ in clauses], cap)
    try:
        mine = replay(orig, clauses, cap, compare_matches)
    except AssertionError:
        raise
    except Exception as e:
        # The machinery itself failed (bad type, failing split/derive): natively
        # that error is what leaves the try statement.
        assert cap.result is not None and cap.result is not orig
        assert (type(e), str(e)) == (type(cap.result), str(cap.result))
        return cap
    assert describe(mine) == cap.result_description
    return cap


def leaf(cls, *args):
    """A leaf exception with a traceback of its own."""
    return raised(cls(*args))


def flat():
    return ExceptionGroup("flat", [leaf(ValueError, 1), leaf(TypeError, 2), leaf(OSError, 3)])


def nested():
    return ExceptionGroup("outer", [
        leaf(ValueError, 1),
        ExceptionGroup("inner", [
            leaf(TypeError, 2),
            leaf(ValueError, 3),
            ExceptionGroup("deep", [leaf(ValueError, 4), leaf(OSError, 5)]),
        ]),
        leaf(KeyError, 6),
        ExceptionGroup("only-os", (leaf(OSError, 7),)),
    ])


def base_group():
    return BaseExceptionGroup("base", [leaf(KeyboardInterrupt), leaf(ValueError, 1),
                                       BaseExceptionGroup("sub", [leaf(SystemExit, 2)])])


def with_metadata():
    eg = nested()
    eg.__cause__ = leaf(RuntimeError, "cause")
    eg.__context__ = leaf(LookupError, "context")
    eg.add_note("note one")
    eg.add_note("note two")
    eg.exceptions[1].add_note("inner note")
    return eg


def with_context_only():
    eg = flat()
    eg.__context__ = leaf(LookupError, "context")
    return eg


def with_cause_none():
    eg = flat()
    eg.__cause__ = None        # suppresses context
    eg.__context__ = leaf(LookupError, "hidden context")
    return eg


class DerivingGroup(ExceptionGroup):
    """Keeps its class through split() and PREP_RERAISE_STAR, and logs derive()."""

    log = []

    def __new__(cls, message, excs, tag="t"):
        self = super().__new__(cls, message, excs)
        self.tag = tag
        return self

    def __init__(self, message, excs, tag="t"):
        super().__init__(message, excs)

    def derive(self, excs):
        DerivingGroup.log.append((self.message, len(excs)))
        return DerivingGroup(self.message, excs, self.tag + "'")


class NoSubgroup(ExceptionGroup):
    """PREP_RERAISE_STAR must not go through these overridable methods."""

    def subgroup(self, condition):
        raise AssertionError("subgroup() called")

    @property
    def exceptions(self):
        raise AssertionError("exceptions read through the attribute")


class SplitOverride(ExceptionGroup):
    """CHECK_EG_MATCH calls split() as a method: this one logs and delegates."""

    log = []

    def split(self, condition):
        SplitOverride.log.append(condition)
        return super().split(condition)

    def derive(self, excs):
        return SplitOverride(self.message, excs)


class BadDerive(ExceptionGroup):
    def derive(self, excs):
        return ValueError("not a group")


class RaisingDerive(ExceptionGroup):
    def derive(self, excs):
        raise OSError("derive failed")


NAKED_CASES = [
    (lambda: leaf(ValueError, 1), [(ValueError, "pass")]),
    (lambda: leaf(ValueError, 1), [(ValueError, "raise")]),
    (lambda: leaf(ValueError, 1), [(ValueError, "raise e")]),
    (lambda: leaf(ValueError, 1), [(ValueError, "raise KeyError(1)")]),
    (lambda: leaf(ValueError, 1), [(ValueError, "raise KeyError(1) from e")]),
    (lambda: leaf(ValueError, 1), [(ValueError, "reraise_in_helper()")]),
    (lambda: leaf(ValueError, 1), [(TypeError, "pass")]),
    (lambda: leaf(ValueError, 1), [(TypeError, "raise")]),
    (lambda: leaf(ValueError, 1), [(TypeError, "pass"), (ValueError, "raise")]),
    (lambda: leaf(ValueError, 1), [(ValueError, "raise"), (Exception, "raise")]),
    (lambda: leaf(ValueError, 1), [(ValueError, "pass"), (ValueError, "raise KeyError()")]),
    (lambda: leaf(ValueError, 1), [((TypeError, ValueError), "raise")]),
    (lambda: leaf(ValueError, 1), [(ValueError, "raise e.exceptions[0]")]),
    (lambda: leaf(ValueError, 1), [(ValueError, "raise ExceptionGroup('new', [KeyError()])")]),
    (lambda: leaf(KeyboardInterrupt), [(KeyboardInterrupt, "pass")]),
    (lambda: leaf(KeyboardInterrupt), [(KeyboardInterrupt, "raise")]),
    (lambda: leaf(KeyboardInterrupt), [(BaseException, "raise ValueError()")]),
    (lambda: leaf(SystemExit, 3), [(Exception, "pass")]),
]

GROUP_CASES = [
    (flat, [(ValueError, "pass")]),
    (flat, [(ValueError, "raise")]),
    (flat, [(ValueError, "raise"), (TypeError, "raise"), (OSError, "raise")]),
    (flat, [(ValueError, "pass"), (TypeError, "pass"), (OSError, "pass")]),
    (flat, [(Exception, "raise")]),                       # full match: the group itself
    (flat, [(Exception, "pass")]),
    (flat, [(KeyError, "raise")]),                        # nothing matches
    (flat, [(ValueError, "raise KeyError(5)")]),
    (flat, [(ValueError, "raise"), (TypeError, "raise KeyError(5)")]),
    (flat, [(ValueError, "raise KeyError(5)"), (TypeError, "raise KeyError(6)")]),
    (flat, [(ValueError, "raise KeyError(5)"), (TypeError, "raise KeyboardInterrupt")]),
    (flat, [(ValueError, "raise KeyboardInterrupt"), (TypeError, "pass"), (OSError, "pass")]),
    (flat, [(ValueError, "raise e")]),
    (flat, [(ValueError, "raise e from None")]),
    (flat, [(ValueError, "reraise_in_helper()")]),
    (flat, [(ValueError, "raise e.exceptions[0]")]),
    (flat, [(ValueError, "raise e.exceptions[0]"), (TypeError, "raise")]),
    (flat, [(ValueError, "raise ExceptionGroup('new', [KeyError(1), KeyError(2)])"),
            (TypeError, "raise")]),
    (flat, [((ValueError, OSError), "raise"), (TypeError, "pass")]),
    (flat, [((ValueError, OSError), "raise"), (Exception, "raise")]),
    (flat, [(TypeError, "raise"), (ValueError, "raise KeyError()"), (Exception, "raise")]),
    # a re-raised part whose metadata the handler changed counts as new
    (flat, [(ValueError, "e.__context__ = KeyError('ctx'); raise")]),
    (flat, [(ValueError, "e.__cause__ = KeyError('cause'); raise")]),
    (flat, [(ValueError, "e.__cause__ = None; raise")]),          # only __suppress_context__
    (flat, [(ValueError, "e.__traceback__ = None; raise")]),
    (flat, [(ValueError, "e.add_note('added'); raise")]),         # notes are not compared
    (flat, [(ValueError, "e.__notes__ = ['replaced']; raise"), (TypeError, "raise")]),
    (with_metadata, [(ValueError, "e.__context__ = None; raise"), (OSError, "raise")]),
    (with_metadata, [(ValueError, "e.__context__ = e.__context__; raise")]),
    (nested, [(ValueError, "raise")]),
    (nested, [(ValueError, "pass")]),
    (nested, [(ValueError, "raise"), (OSError, "raise")]),
    (nested, [(ValueError, "raise"), (OSError, "pass"), (TypeError, "raise"), (KeyError, "raise")]),
    (nested, [(OSError, "raise KeyError('new')"), (ValueError, "raise")]),
    (nested, [(OSError, "pass"), (ValueError, "pass"), (TypeError, "pass"), (KeyError, "pass")]),
    (nested, [(OSError, "raise"), (LookupError, "raise e")]),
    (nested, [(Exception, "raise"), (ValueError, "raise")]),
    (nested, [(TypeError, "raise RuntimeError('x')"), (ValueError, "raise RuntimeError('y')")]),
    (base_group, [(KeyboardInterrupt, "raise")]),
    (base_group, [(KeyboardInterrupt, "pass"), (SystemExit, "raise")]),
    (base_group, [(ValueError, "raise"), (BaseException, "raise")]),
    (base_group, [(ValueError, "raise KeyError()"), (SystemExit, "pass")]),
    (base_group, [(Exception, "pass")]),
    (with_metadata, [(ValueError, "raise")]),
    (with_metadata, [(ValueError, "raise"), (OSError, "raise")]),
    (with_metadata, [(ValueError, "raise KeyError()"), (TypeError, "pass")]),
    (with_metadata, [(Exception, "raise")]),
    (with_context_only, [(ValueError, "raise"), (TypeError, "raise RuntimeError()")]),
    (with_cause_none, [(ValueError, "raise")]),
    (with_cause_none, [(ValueError, "pass")]),
    (lambda: DerivingGroup("dg", [leaf(ValueError, 1),
                                  DerivingGroup("dg2", [leaf(TypeError, 2), leaf(ValueError, 3)])]),
     [(ValueError, "raise")]),
    (lambda: DerivingGroup("dg", [leaf(ValueError, 1), leaf(TypeError, 2)]),
     [(ValueError, "raise"), (TypeError, "raise KeyError()")]),
    (lambda: NoSubgroup("ns", [leaf(ValueError, 1), leaf(TypeError, 2)]),
     [(ValueError, "raise")]),
    (lambda: SplitOverride("so", [leaf(ValueError, 1), leaf(TypeError, 2)]),
     [(ValueError, "raise"), (OSError, "pass")]),
    (lambda: BadDerive("bd", [leaf(ValueError, 1), leaf(TypeError, 2)]),
     [(ValueError, "raise")]),
    (lambda: RaisingDerive("rd", [leaf(ValueError, 1), leaf(TypeError, 2)]),
     [(ValueError, "raise")]),
    (lambda: RaisingDerive("rd", [leaf(ValueError, 1), leaf(TypeError, 2)]),
     [(Exception, "raise")]),   # full match: no derive until... none at all
    (flat, [(MyTuple((ValueError,)), "raise")]),           # split() refuses tuple subclasses
    (flat, [(ExceptionGroup, "raise")]),
    (flat, [((ValueError, 3), "raise")]),
    (lambda: leaf(ValueError, 1), [(MyGroup, "pass")]),
]


class TestExceptStar:

    @pytest.mark.parametrize("make_orig,clauses", NAKED_CASES,
                             ids=[repr([s for _, s in c]) for _, c in NAKED_CASES])
    def test_naked(self, make_orig, clauses):
        check_star(make_orig, clauses)

    @pytest.mark.parametrize("make_orig,clauses", GROUP_CASES,
                             ids=["%d-%s" % (i, [s for _, s in c]) for i, (_, c) in enumerate(GROUP_CASES)])
    def test_groups(self, make_orig, clauses):
        check_star(make_orig, clauses)

    def test_derive_calls(self):
        make = lambda: DerivingGroup("dg", [
            leaf(ValueError, 1),
            DerivingGroup("dg2", [leaf(TypeError, 2), leaf(ValueError, 3)]),
            leaf(OSError, 4)])
        clauses = [(ValueError, "raise"), (OSError, "raise KeyError()")]
        orig = make()
        cap = Capture()
        DerivingGroup.log.clear()
        _star_fn(tuple(s for _, s in clauses))(orig, [t for t, _ in clauses], cap)
        native_log = list(DerivingGroup.log)
        DerivingGroup.log.clear()
        mine = replay(orig, clauses, cap)
        assert DerivingGroup.log == native_log
        assert describe(mine) == cap.result_description
        assert cap.result.exceptions[1].tag == mine.exceptions[1].tag

    def test_full_match_raised_again(self):
        # ``raise e`` where e is orig itself: orig gets a new traceback, so the
        # handler's exception still has orig's metadata and counts as re-raised.
        cap = check_star(flat, [(Exception, "raise e")], compare_matches=False)
        assert cap.result is not None
        cap = check_star(nested, [(Exception, "raise e"), (ValueError, "pass")],
                         compare_matches=False)

    def test_split_called_as_method(self):
        SplitOverride.log.clear()
        cap = check_star(lambda: SplitOverride("so", [leaf(ValueError, 1), leaf(TypeError, 2)]),
                         [(ValueError, "raise"), (OSError, "pass")])
        assert cap is not None
        # one native split per clause, and the same again in the replay
        assert SplitOverride.log == [ValueError, OSError] * 2

    def test_split_returning_no_pair(self):
        # 3.11 only asserts the shape of split()'s result (python3.11 crashes on a list);
        # pyadapt raises the TypeError later versions raise (docs/architecture.md)
        class BadSplit(ExceptionGroup):
            result = None

            def split(self, condition):
                return BadSplit.result

        eg = BadSplit("b", [leaf(ValueError, 1), leaf(TypeError, 2)])
        for result, message in ((["a", "b"], "BadSplit.split must return a tuple, not list"),
                                ((None,), "BadSplit.split must return a 2-tuple, got tuple of size 1"),
                                (MyTuple((None, None)), "BadSplit.split must return a tuple, not MyTuple")):
            BadSplit.result = result
            with pytest.raises(TypeError) as info:
                _core._exception_group_match(eg, ValueError)
            assert str(info.value) == message
        BadSplit.result = (None, eg)
        assert _core._exception_group_match(eg, ValueError) == (None, eg)

    def test_wrapped_naked_exception(self):
        v = leaf(ValueError, 1)
        match, rest = _core._exception_group_match(v, ValueError)
        assert type(match) is ExceptionGroup and match.exceptions[0] is v and rest is None
        assert match.args == ("", (v,))
        # CPython 3.11 does not give the wrapper the traceback of the exception
        # (3.12 does); what the handler sees natively:
        try:
            raise v
        except* ValueError as e:
            native = e
        assert native.__traceback__ is None and match.__traceback__ is None
        k = leaf(KeyboardInterrupt)
        match, rest = _core._exception_group_match(k, KeyboardInterrupt)
        assert type(match) is BaseExceptionGroup and match.exceptions == (k,)

    def test_exception_group_match_no_match(self):
        v = leaf(ValueError, 1)
        # no match: the loop leaves the stack alone, so the rest is never seen
        assert _core._exception_group_match(v, TypeError)[0] is None
        eg = flat()
        match, rest = _core._exception_group_match(eg, KeyError)
        assert match is None
        assert _core._exception_group_match(None, ValueError) == (None, None)
        match, rest = _core._exception_group_match(eg, Exception)
        assert match is eg and rest is None

    def test_exception_group_match_partial(self):
        eg = nested()
        match, rest = _core._exception_group_match(eg, ValueError)
        native_match, native_rest = eg.split(ValueError)
        assert describe(match) == describe(native_match)
        assert describe(rest) == describe(native_rest)

    def test_prep_reraise_star_direct(self):
        eg = raised(flat())
        assert _core._prep_reraise_star(eg, []) is None
        assert _core._prep_reraise_star(eg, [None]) is None
        v = leaf(ValueError, 1)
        assert _core._prep_reraise_star(v, [None]) is None
        assert _core._prep_reraise_star(v, [v]) is v
        k = KeyError()
        assert _core._prep_reraise_star(v, [k, None]) is k
        # a bare leaf that shares the group's metadata counts as re-raised
        leaf0 = eg.exceptions[0]
        leaf0.__traceback__ = eg.__traceback__
        res = _core._prep_reraise_star(eg, [leaf0])
        assert type(res) is ExceptionGroup and res.exceptions == (leaf0,)
        assert res.__traceback__ is eg.__traceback__
        # every re-raised part rebuilds the group (never orig itself)
        res = _core._prep_reraise_star(eg, [eg])
        assert res is not eg and res.exceptions == eg.exceptions and res.args[1] == list(eg.exceptions)
        # new exceptions come first, in order, then the re-raised part
        a, b = KeyError("a"), KeyError("b")
        res = _core._prep_reraise_star(eg, [a, eg.subgroup(TypeError), None, b])
        assert res.args == ("", [a, b, res.exceptions[2]])
        assert res.exceptions[2].exceptions == (eg.exceptions[1],)
        assert res.__traceback__ is None and res.__context__ is None

    def test_deep_nesting(self):
        e = leaf(ValueError, 0)
        eg = ExceptionGroup("l0", [e])
        for i in range(1, 60):
            eg = ExceptionGroup("l%d" % i, [eg, leaf(TypeError, i)])
        check_star(lambda: eg, [(ValueError, "raise"), (TypeError, "pass")])
