"""Python implementations of CPython 3.11 helpers that libpython does not export.

(The match statement's look-ups, MATCH_CLASS and MATCH_KEYS, are C: csrc/pa_match.c.  A
Python helper runs as a frame of its own, which the program can see when the helper calls
back into its code; these two call attribute getters, isinstance hooks and ``get``.)

pyadapt's C eval loop calls these (positionally) where CPython's own loop calls a
static or hidden C helper:

=========================================  ==========================================
CPython 3.11 (hidden)                      here
=========================================  ==========================================
``_PyExc_PrepReraiseStar`` (exceptions.c)  :func:`prep_reraise_star` (PREP_RERAISE_STAR)
``exception_group_match`` (ceval.c)        :func:`exception_group_match` (CHECK_EG_MATCH)
``check_except_star_type_valid``           :func:`check_except_star_type_valid` (CHECK_EG_MATCH)
``check_except_type_valid``                :func:`check_except_type_valid` (CHECK_EXC_MATCH)
=========================================  ==========================================

The behaviour (results, object identity, exception types and messages) is that of
CPython 3.11.7; ``tests/test_runtime_helpers.py`` checks it against the running
interpreter.  Pure Python, importable without the C core, no other pyadapt imports.

How the loop uses the results (what CPython 3.11's opcodes do around the helper):

* CHECK_EG_MATCH: pops ``match_type``, calls ``check_except_star_type_valid`` (an
  error goes to the error label), then ``match, rest = exception_group_match(top,
  match_type)``.  If ``match`` is None it pushes None and leaves the top alone;
  otherwise it replaces the top with ``rest`` (which may be None), pushes ``match``
  and makes ``match`` the handled exception (``PyErr_SetExcInfo(NULL, match, NULL)``:
  ``tstate->exc_info->exc_value = match``).
* CHECK_EXC_MATCH: ``check_except_type_valid(right)`` first, then the exported
  ``PyErr_GivenExceptionMatches``.
* PREP_RERAISE_STAR: pops the list ``excs`` and ``orig``, pushes
  ``prep_reraise_star(orig, excs)``.
"""

__all__ = [
    "prep_reraise_star",
    "exception_group_match",
    "check_except_star_type_valid",
    "check_except_type_valid",
]

import builtins as _builtins
from builtins import AttributeError, Exception, TypeError, ValueError, bool, range  # fixed at import

# Fixed references to the real builtins and to the C-level accessors, so that user
# subclasses overriding attributes (``exceptions``, ``__traceback__``, ...) see the
# same struct-level reads as the C code does.
_BaseException = _builtins.BaseException
_BaseExceptionGroup = _builtins.BaseExceptionGroup
_type = _builtins.type
_tuple = _builtins.tuple
_str = _builtins.str
_set = _builtins.set
_object = _builtins.object
_id = _builtins.id
_issubclass = _builtins.issubclass
_isinstance = _builtins.isinstance
_getattr = _builtins.getattr
_repr = _builtins.repr
_len = _builtins.len

_get_flags = _type.__dict__["__flags__"].__get__
_get_mro = _type.__dict__["__mro__"].__get__
_tuple_iter = _tuple.__iter__
_tuple_len = _tuple.__len__
_get_traceback = _BaseException.__dict__["__traceback__"].__get__
_get_cause = _BaseException.__dict__["__cause__"].__get__
_get_context = _BaseException.__dict__["__context__"].__get__
_get_excs = _BaseExceptionGroup.__dict__["exceptions"].__get__
_eg_subgroup = _BaseExceptionGroup.__dict__["subgroup"]

_TPFLAGS_HEAPTYPE = 1 << 9
_TPFLAGS_MATCH_SELF = 1 << 22
_TPFLAGS_BASE_EXC_SUBCLASS = 1 << 30

_CANNOT_CATCH_MSG = (
    "catching classes that do not inherit from BaseException is not allowed")
_CANNOT_EXCEPT_STAR_EG = (
    "catching ExceptionGroup with except* is not allowed. Use except instead.")


# --------------------------------------------------------------------------- #
# C-level predicates
# --------------------------------------------------------------------------- #

def _is_type(obj):
    """PyType_Check: by the object's real type, ignoring ``__class__``."""
    return _issubclass(_type(obj), _type)


def _is_subtype(a, b):
    """PyType_IsSubtype(a, b) for two type objects (no ``__subclasscheck__``,
    no metaclass ``__eq__``)."""
    for base in _get_mro(a):
        if base is b:
            return True
    return False


def _is_tuple(obj):
    """PyTuple_Check: by the real type (subclasses included)."""
    return _issubclass(_type(obj), _tuple)


def _is_exception_class(obj):
    """PyExceptionClass_Check."""
    return _is_type(obj) and bool(_get_flags(obj) & _TPFLAGS_BASE_EXC_SUBCLASS)


def _is_eg(obj):
    """_PyBaseExceptionGroup_Check (PyObject_TypeCheck, by the real type)."""
    return _is_subtype(_type(obj), _BaseExceptionGroup)


def _given_exception_matches(err, exc):
    """PyErr_GivenExceptionMatches(err, exc) for an exception instance ``err``."""
    if _is_tuple(exc):
        for item in _tuple_iter(exc):
            if _given_exception_matches(err, item):
                return True
        return False
    if _is_subtype(_type(err), _BaseException):   # PyExceptionInstance_Check
        err = _type(err)
    if _is_exception_class(err) and _is_exception_class(exc):
        return _is_subtype(err, exc)
    return err is exc


# --------------------------------------------------------------------------- #
# except / except*
# --------------------------------------------------------------------------- #

def check_except_type_valid(match_type):
    """ceval.c's check_except_type_valid: the type check CHECK_EXC_MATCH does.

    Raises TypeError unless ``match_type`` is an exception class or a tuple of
    exception classes (nested tuples are refused).  Returns None.
    """
    if _is_tuple(match_type):
        for exc in _tuple_iter(match_type):
            if not _is_exception_class(exc):
                raise TypeError(_CANNOT_CATCH_MSG)
    elif not _is_exception_class(match_type):
        raise TypeError(_CANNOT_CATCH_MSG)


def check_except_star_type_valid(match_type):
    """ceval.c's check_except_star_type_valid: what CHECK_EG_MATCH checks first.

    As :func:`check_except_type_valid`, and also refuses BaseExceptionGroup and
    its subclasses (alone or in the tuple).  Returns None.
    """
    check_except_type_valid(match_type)
    if _is_tuple(match_type):
        is_subclass = False
        for exc in _tuple_iter(match_type):
            if _issubclass(exc, _BaseExceptionGroup):
                is_subclass = True
                break
    else:
        is_subclass = _issubclass(match_type, _BaseExceptionGroup)
    if is_subclass:
        raise TypeError(_CANNOT_EXCEPT_STAR_EG)


def exception_group_match(exc_value, match_type):
    """CHECK_EG_MATCH's split of the exception being handled: ``(match, rest)``.

    * ``exc_value`` None (an earlier clause took everything): ``(None, None)``.
    * ``exc_value`` matches ``match_type`` as a whole: a group is the match
      itself, a naked exception is wrapped in ``BaseExceptionGroup("", (exc,))``
      (an ExceptionGroup when exc is an Exception; in 3.11 the wrapper gets no
      traceback, cause or context); rest is None.
    * a group that does not match as a whole: ``exc_value.split(match_type)``
      (called as a method, as CPython does).
    * no match at all: ``(None, exc_value)`` -- the exception stays on the stack
      as it is (CPython leaves the stack untouched when match is None, so the
      rest it computed is never seen).

    ``match_type`` must already have passed :func:`check_except_star_type_valid`.
    """
    if exc_value is None:
        return None, None
    if _given_exception_matches(exc_value, match_type):
        if _is_eg(exc_value):
            return exc_value, None
        # _PyExc_CreateExceptionGroup: the builtin BaseExceptionGroup, which
        # picks ExceptionGroup when every member is an Exception.
        return _BaseExceptionGroup("", (exc_value,)), None
    if _is_eg(exc_value):
        pair = exc_value.split(match_type)
        match = pair[0]
        if match is None:
            return None, exc_value
        return match, pair[1]
    return None, exc_value


def _same_metadata(e1, e2):
    """exceptions.c's is_same_exception_metadata.

    Compares the traceback, cause and context by identity.  (It also compares
    the struct's ``notes`` slot, which 3.11 never fills: ``__notes__`` lives in
    the instance dict, and split() gives each part its own copy of the list, so
    notes never make a re-raised part look new.)
    """
    return (_get_traceback(e1) is _get_traceback(e2)
            and _get_cause(e1) is _get_cause(e2)
            and _get_context(e1) is _get_context(e2))


def _collect_leaf_ids(exc, leaf_ids):
    """collect_exception_group_leaf_ids: ids of every leaf under ``exc``."""
    stack = [exc]
    while stack:
        e = stack.pop()
        if e is None:
            continue
        if _is_eg(e):
            stack.extend(_get_excs(e))
        else:
            leaf_ids.add(_id(e))


def _projection(eg, keep):
    """exception_group_projection: the part of ``eg`` whose leaves appear in
    ``keep``, with ``eg``'s nesting; every group on the way is rebuilt with
    derive() and gets its original's traceback, cause, context and a copy of its
    notes (it is BaseExceptionGroup.subgroup's machinery).  None when empty.
    """
    leaf_ids = _set()
    for e in keep:
        _collect_leaf_ids(e, leaf_ids)
    if not leaf_ids:
        return None

    def is_kept_leaf(e):
        return not _is_eg(e) and _id(e) in leaf_ids

    # The unbound C method, so that a subclass overriding subgroup() is not
    # consulted (CPython calls the C routine directly); derive() still is.
    return _eg_subgroup(eg, is_kept_leaf)


def prep_reraise_star(orig, excs):
    """_PyExc_PrepReraiseStar: what to raise at the end of a try/except*.

    ``orig`` is the exception caught by the try, ``excs`` the list the handlers
    built: each exception an except* clause raised (or re-raised), then the
    unhandled rest (None when everything was handled).  Returns the exception to
    re-raise, or None.

    * naked ``orig`` (not a group): only one clause can have run, so the answer
      is ``excs[0]`` (its raise, the rest, or None).
    * otherwise the exceptions with ``orig``'s traceback, cause and context are
      re-raises: their leaves are kept in ``orig``'s own nesting (a new group
      derived from ``orig``, even when nothing was removed).  Others are new
      raises; if there are any, the result is ``BaseExceptionGroup("", [raised...,
      reraised_group])`` (an ExceptionGroup when all are Exceptions), or the single
      exception itself when there is only one.
    """
    if not excs:
        return None
    if not _is_eg(orig):
        return excs[0]

    raised = []
    reraised = []
    for e in excs:
        if e is None:
            continue
        if _same_metadata(e, orig):
            reraised.append(e)
        else:
            raised.append(e)

    reraised_eg = _projection(orig, reraised)
    if not raised:
        return reraised_eg
    if reraised_eg is not None:
        raised.append(reraised_eg)
    if _len(raised) > 1:
        return _BaseExceptionGroup("", raised)
    return raised[0]
