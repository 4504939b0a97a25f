"""Python implementations of CPython 3.11 helpers that libpython does not export.

pyadapt's C eval loop calls these (positionally) where CPython's own loop calls a
static or hidden C helper:

=========================================  ==========================================
CPython 3.11 (hidden)                      here
=========================================  ==========================================
``_PyExc_PrepReraiseStar`` (exceptions.c)  :func:`prep_reraise_star` (PREP_RERAISE_STAR)
``match_class`` (ceval.c, static)          :func:`match_class` (MATCH_CLASS)
``match_keys`` (ceval.c, static)           :func:`match_keys` (MATCH_KEYS)
``exception_group_match`` (ceval.c)        :func:`exception_group_match` (CHECK_EG_MATCH)
``check_except_star_type_valid``           :func:`check_except_star_type_valid` (CHECK_EG_MATCH)
``check_except_type_valid``                :func:`check_except_type_valid` (CHECK_EXC_MATCH)
=========================================  ==========================================

The behaviour (results, object identity, exception types and messages) is that of
CPython 3.11.7; ``tests/test_runtime_helpers.py`` checks it against the running
interpreter.  Pure Python, importable without the C core, no other pyadapt imports.

How the loop uses the results (what CPython 3.11's opcodes do around the helper):

* MATCH_CLASS (oparg = nargs): pops ``names`` and ``cls``; the subject on top is
  replaced by ``match_class(subject, cls, oparg, names)`` (a tuple, or None).
* MATCH_KEYS: pushes ``match_keys(subject, keys)`` (a tuple, or None); subject and
  keys stay on the stack.
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
    "match_class",
    "match_keys",
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


_tp_name_offset = None


def _tp_name(tp):
    """The C ``tp_name`` of a type, as CPython's messages print it.

    For classes made by a ``class`` statement it is ``__name__``; for static
    types and types made from a PyType_Spec it keeps the module prefix
    (``datetime.date``, ``collections.OrderedDict``, ``_struct.Struct``), which no
    Python attribute gives exactly, so it is read from the type object itself.
    """
    global _tp_name_offset
    try:
        import ctypes
        if _tp_name_offset is None:
            # offsetof(PyTypeObject, tp_name) == sizeof(PyVarObject)
            _tp_name_offset = _object.__basicsize__ + ctypes.sizeof(ctypes.c_ssize_t)
        raw = ctypes.c_char_p.from_address(_id(tp) + _tp_name_offset).value
        if raw is not None:
            # PyUnicode_FromFormat's %s decodes UTF-8 with errors="replace".
            return raw.decode("utf-8", "replace")
    except Exception:
        pass
    # Fallback: exact for class-statement types and static types.
    name = tp.__name__
    if not _get_flags(tp) & _TPFLAGS_HEAPTYPE:
        module = tp.__module__
        if module != "builtins":
            return "%s.%s" % (module, name)
    return name


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


# --------------------------------------------------------------------------- #
# match statement
# --------------------------------------------------------------------------- #

def _match_class_attr(subject, cls, name, seen):
    """match_class_attr: ``(True, value)`` or ``(False, None)`` if missing."""
    if name in seen:
        raise TypeError("%s() got multiple sub-patterns for attribute %s"
                        % (_tp_name(cls), _repr(name)))
    seen.add(name)
    try:
        return True, _getattr(subject, name)
    except AttributeError:
        return False, None


def match_class(subject, cls, nargs, names):
    """MATCH_CLASS: ``case cls(<nargs positional>, <names>=...)``.

    Returns the tuple of extracted attributes (positional first, then
    keywords), or None when the subject does not match.  Raises CPython 3.11's
    TypeErrors for a bad pattern; errors from isinstance() and attribute look-up
    other than AttributeError propagate.
    """
    if not _is_type(cls):
        raise TypeError("called match pattern must be a type")
    if not _isinstance(subject, cls):
        return None
    seen = _set()
    attrs = []
    if nargs:
        match_self = False
        try:
            match_args = _getattr(cls, "__match_args__")
        except AttributeError:
            # _Py_TPFLAGS_MATCH_SELF only counts when there is no __match_args__.
            match_args = ()
            match_self = bool(_get_flags(cls) & _TPFLAGS_MATCH_SELF)
        else:
            if _type(match_args) is not _tuple:
                raise TypeError("%s.__match_args__ must be a tuple (got %s)"
                                % (_tp_name(cls), _tp_name(_type(match_args))))
        allowed = 1 if match_self else _tuple_len(match_args)
        if allowed < nargs:
            raise TypeError("%s() accepts %d positional sub-pattern%s (%d given)"
                            % (_tp_name(cls), allowed,
                               "" if allowed == 1 else "s", nargs))
        if match_self:
            attrs.append(subject)
        else:
            for i in range(nargs):
                name = match_args[i]
                if _type(name) is not _str:
                    raise TypeError("__match_args__ elements must be strings "
                                    "(got %s)" % _tp_name(_type(name)))
                found, attr = _match_class_attr(subject, cls, name, seen)
                if not found:
                    return None
                attrs.append(attr)
    for name in names:
        found, attr = _match_class_attr(subject, cls, name, seen)
        if not found:
            return None
        attrs.append(attr)
    return _tuple(attrs)


def match_keys(subject, keys):
    """MATCH_KEYS: the values of ``keys`` (a tuple) in the mapping ``subject``.

    Looks them up with ``subject.get(key, <sentinel>)`` (so ``__missing__`` of
    dict subclasses is not triggered), in order, and returns a tuple of values,
    or None as soon as one key is absent.  A key that repeats an earlier one
    raises ValueError("mapping pattern checks duplicate key (%r)").
    """
    if not keys:
        return ()
    get = _getattr(subject, "get")   # an AttributeError propagates, as in C
    seen = _set()
    dummy = _object()
    values = []
    for key in keys:
        if key in seen:
            raise ValueError("mapping pattern checks duplicate key (%s)"
                             % _repr(key))
        seen.add(key)
        value = get(key, dummy)
        if value is dummy:
            return None
        values.append(value)
    return _tuple(values)
