/* pa_excgroup.c -- the except* machinery: CHECK_EG_MATCH's type check and split, and
 * PREP_RERAISE_STAR's combination of what the handlers raised.
 *
 * CPython 3.11 does these in C that libpython does not export (ceval.c's static
 * check_except_star_type_valid and exception_group_match, exceptions.c's
 * _PyExc_PrepReraiseStar with its static helpers).  They used to be Python functions
 * (pyadapt._runtime), called from pyadapt's loop: their frames were then part of the
 * program's stack, so split() and derive() of an exception group subclass saw
 * `exception_group_match` or `_projection` as their caller (sys._getframe(1)), an exception
 * raised in them lost its own traceback entries, and a signal handler could be handed frames
 * of pyadapt (tests/regressions/except_star_helpers_invisible.py).  Here they are C: no frame,
 * no eval breaker of their own; the program's code they call (split, derive, a group's
 * __init__, a __notes__ look-up) runs with the handling frame as its caller, as natively.
 *
 * Behaviour (results, object identity, exception types and messages, the order of the calls
 * into the program) is CPython 3.11.7's; tests/test_runtime_helpers.py checks it against the
 * running interpreter's own try/except*.
 */
#include "pa_internal.h"

#define CANNOT_CATCH_MSG \
    "catching classes that do not inherit from BaseException is not allowed"
#define CANNOT_EXCEPT_STAR_EG \
    "catching ExceptionGroup with except* is not allowed. Use except instead."

/* Names looked up on the program's groups (pa_interned). */
static PyObject *str_split, *str_derive, *str_notes;

static int
is_group(PyObject *obj)
{
    return PyObject_TypeCheck(obj, (PyTypeObject *)PyExc_BaseExceptionGroup);
}

/* The members of a group, read from the struct (a subclass's `exceptions` property is not
 * consulted): a borrowed tuple. */
static PyObject *
group_members(PyObject *eg)
{
    return ((PyBaseExceptionGroupObject *)eg)->excs;
}

/* `except T:`'s check: T is an exception class or a tuple of them (not nested). */
int
pa_check_except_type_valid(PyObject *match_type)
{
    if (PyTuple_Check(match_type)) {
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(match_type); i++) {
            if (!PyExceptionClass_Check(PyTuple_GET_ITEM(match_type, i))) {
                PyErr_SetString(PyExc_TypeError, CANNOT_CATCH_MSG);
                return -1;
            }
        }
        return 0;
    }
    if (!PyExceptionClass_Check(match_type)) {
        PyErr_SetString(PyExc_TypeError, CANNOT_CATCH_MSG);
        return -1;
    }
    return 0;
}

/* `except* T:`'s check: as `except T:`, and no BaseExceptionGroup (or subclass) in T. */
int
pa_check_except_star_type_valid(PyObject *match_type)
{
    if (pa_check_except_type_valid(match_type) < 0) {
        return -1;
    }
    int group = 0;
    if (PyTuple_Check(match_type)) {
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(match_type) && !group; i++) {
            group = PyObject_IsSubclass(PyTuple_GET_ITEM(match_type, i),
                                        PyExc_BaseExceptionGroup);
            if (group < 0) {
                return -1;
            }
        }
    }
    else {
        group = PyObject_IsSubclass(match_type, PyExc_BaseExceptionGroup);
        if (group < 0) {
            return -1;
        }
    }
    if (group) {
        PyErr_SetString(PyExc_TypeError, CANNOT_EXCEPT_STAR_EG);
        return -1;
    }
    return 0;
}

/* BaseExceptionGroup("", excs): the builtin picks ExceptionGroup when every member is an
 * Exception.  A new reference or NULL. */
static PyObject *
new_anonymous_group(PyObject *excs)
{
    PyObject *msg = PyUnicode_FromStringAndSize("", 0);
    if (msg == NULL) {
        return NULL;
    }
    PyObject *args[2] = {msg, excs};
    PyObject *eg = PyObject_Vectorcall(PyExc_BaseExceptionGroup, args, 2, NULL);
    Py_DECREF(msg);
    return eg;
}

/* CHECK_EG_MATCH's split of the exception being handled, `exc_value` (None when an earlier
 * clause took everything), by `match_type` (already checked):
 * 0 with *match and *rest new references, *match being None when nothing matches (then
 * *rest is None too and the stack is left alone); -1 with an exception set.
 * A whole match gives the group itself, or a naked exception wrapped in a new group, and no
 * rest; a group matching in part is split by its own split() method, called as a method. */
int
pa_exception_group_match(PyObject *exc_value, PyObject *match_type,
                         PyObject **match, PyObject **rest)
{
    *match = *rest = NULL;
    if (Py_IsNone(exc_value)) {
        *match = Py_NewRef(Py_None);
        *rest = Py_NewRef(Py_None);
        return 0;
    }
    if (PyErr_GivenExceptionMatches(exc_value, match_type)) {
        if (is_group(exc_value)) {
            *match = Py_NewRef(exc_value);
        }
        else {
            PyObject *members = PyTuple_Pack(1, exc_value);
            if (members == NULL) {
                return -1;
            }
            *match = new_anonymous_group(members);
            Py_DECREF(members);
            if (*match == NULL) {
                return -1;
            }
        }
        *rest = Py_NewRef(Py_None);
        return 0;
    }
    if (!is_group(exc_value)) {
        *match = Py_NewRef(Py_None);
        *rest = Py_NewRef(Py_None);
        return 0;
    }
    PyObject *name = pa_interned(&str_split, "split");
    PyObject *pair = name != NULL ? PyObject_CallMethodOneArg(exc_value, name, match_type) : NULL;
    if (pair == NULL) {
        return -1;
    }
    /* 3.11 only asserts this (a release build reads past whatever split() returned); the
     * check and its messages are those later versions raise */
    if (!PyTuple_CheckExact(pair)) {
        PyErr_Format(PyExc_TypeError, "%.200s.split must return a tuple, not %.200s",
                     Py_TYPE(exc_value)->tp_name, Py_TYPE(pair)->tp_name);
        Py_DECREF(pair);
        return -1;
    }
    if (PyTuple_GET_SIZE(pair) != 2) {
        PyErr_Format(PyExc_TypeError,
                     "%.200s.split must return a 2-tuple, got tuple of size %zd",
                     Py_TYPE(exc_value)->tp_name, PyTuple_GET_SIZE(pair));
        Py_DECREF(pair);
        return -1;
    }
    *match = Py_NewRef(PyTuple_GET_ITEM(pair, 0));
    *rest = Py_NewRef(PyTuple_GET_ITEM(pair, 1));
    Py_DECREF(pair);
    return 0;
}

/* A re-raise carries the caught group's own traceback, cause and context (and the notes
 * slot, which 3.11 never fills: __notes__ lives in the instance dict). */
static int
same_metadata(PyObject *a, PyObject *b)
{
    PyBaseExceptionObject *x = (PyBaseExceptionObject *)a, *y = (PyBaseExceptionObject *)b;
    return x->notes == y->notes && x->traceback == y->traceback && x->cause == y->cause &&
           x->context == y->context;
}

/* Add the address of every leaf under `exc` (None skipped) to the set `ids`: 0 or -1. */
static int
add_leaf_ids(PyObject *exc, PyObject *ids)
{
    if (Py_IsNone(exc)) {
        return 0;
    }
    if (!is_group(exc)) {
        PyObject *id = PyLong_FromVoidPtr(exc);
        if (id == NULL) {
            return -1;
        }
        int err = PySet_Add(ids, id);
        Py_DECREF(id);
        return err;
    }
    PyObject *members = group_members(exc);
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(members); i++) {
        if (Py_EnterRecursiveCall(" in collect_exception_group_leaf_ids")) {
            return -1;
        }
        int err = add_leaf_ids(PyTuple_GET_ITEM(members, i), ids);
        Py_LeaveRecursiveCall();
        if (err < 0) {
            return -1;
        }
    }
    return 0;
}

/* A group like `eg` holding `members` (a non-empty list): eg.derive(members), given eg's
 * traceback, cause, context and a copy of its __notes__ (when a sequence).  What split()
 * and subgroup() build each part with.  A new reference or NULL. */
static PyObject *
derive_part(PyObject *eg, PyObject *members)
{
    PyObject *name = pa_interned(&str_derive, "derive");
    PyObject *part = name != NULL ? PyObject_CallMethodOneArg(eg, name, members) : NULL;
    if (part == NULL) {
        return NULL;
    }
    if (!is_group(part)) {
        PyErr_SetString(PyExc_TypeError, "derive must return an instance of BaseExceptionGroup");
        goto error;
    }
    PyObject *tb = PyException_GetTraceback(eg);
    if (tb != NULL) {
        int err = PyException_SetTraceback(part, tb);
        Py_DECREF(tb);
        if (err < 0) {
            goto error;
        }
    }
    PyException_SetContext(part, PyException_GetContext(eg));   /* both steal / give */
    PyException_SetCause(part, PyException_GetCause(eg));
    name = pa_interned(&str_notes, "__notes__");
    if (name == NULL) {
        goto error;
    }
    PyObject *notes;
    if (_PyObject_LookupAttr(eg, name, &notes) < 0) {
        goto error;
    }
    if (notes != NULL) {
        if (PySequence_Check(notes)) {
            PyObject *copy = PySequence_List(notes);
            Py_DECREF(notes);
            if (copy == NULL) {
                goto error;
            }
            int err = PyObject_SetAttr(part, name, copy);
            Py_DECREF(copy);
            if (err < 0) {
                goto error;
            }
        }
        else {
            Py_DECREF(notes);   /* not a sequence: ignored, as split() does */
        }
    }
    return part;
error:
    Py_DECREF(part);
    return NULL;
}

/* The part of `exc` whose leaves are in `ids`, with exc's nesting: a new reference, NULL
 * with no error set when nothing is kept, NULL with an error set on failure.  Every group on
 * the way that keeps something is rebuilt by derive_part (even when it keeps everything). */
static PyObject *
keep_leaves(PyObject *exc, PyObject *ids)
{
    if (!is_group(exc)) {
        PyObject *id = PyLong_FromVoidPtr(exc);
        if (id == NULL) {
            return NULL;
        }
        int kept = PySet_Contains(ids, id);
        Py_DECREF(id);
        return kept > 0 ? Py_NewRef(exc) : NULL;
    }
    PyObject *members = group_members(exc);
    PyObject *kept = PyList_New(0);
    if (kept == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(members); i++) {
        if (Py_EnterRecursiveCall(" in exceptiongroup_split_recursive")) {
            goto error;
        }
        PyObject *part = keep_leaves(PyTuple_GET_ITEM(members, i), ids);
        Py_LeaveRecursiveCall();
        if (part == NULL) {
            if (PyErr_Occurred()) {
                goto error;
            }
            continue;
        }
        int err = PyList_Append(kept, part);
        Py_DECREF(part);
        if (err < 0) {
            goto error;
        }
    }
    PyObject *result = PyList_GET_SIZE(kept) > 0 ? derive_part(exc, kept) : NULL;
    Py_DECREF(kept);
    return result;
error:
    Py_DECREF(kept);
    return NULL;
}

/* PREP_RERAISE_STAR: what leaves a try/except* statement, given the exception `orig` the try
 * caught and the list `excs` the handlers built (what each clause raised or re-raised, then
 * the unhandled rest; None entries for nothing).  A new reference (None: nothing to raise)
 * or NULL.
 * A naked `orig` was wrapped, so one clause at most ran: excs[0].  Otherwise the entries with
 * orig's own metadata are re-raises, whose leaves are kept in orig's nesting (a new group
 * derived from orig); any others were raised anew, and with the re-raised group after them
 * they make a new BaseExceptionGroup("", [...]) -- or stand alone when there is just one. */
PyObject *
pa_prep_reraise_star(PyObject *orig, PyObject *excs)
{
    Py_ssize_t n = PyList_GET_SIZE(excs);
    if (n == 0) {
        Py_RETURN_NONE;
    }
    if (!is_group(orig)) {
        return Py_NewRef(PyList_GET_ITEM(excs, 0));
    }
    PyObject *raised = PyList_New(0);
    PyObject *ids = PySet_New(NULL);
    PyObject *reraised = NULL, *result = NULL;
    if (raised == NULL || ids == NULL) {
        goto done;
    }
    /* a list can change under us only through the program's code, which add_leaf_ids does
     * not run; index checks anyway */
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(excs); i++) {
        PyObject *e = PyList_GET_ITEM(excs, i);
        if (Py_IsNone(e)) {
            continue;
        }
        int err = same_metadata(e, orig) ? add_leaf_ids(e, ids) : PyList_Append(raised, e);
        if (err < 0) {
            goto done;
        }
    }
    if (PySet_GET_SIZE(ids) > 0) {
        reraised = keep_leaves(orig, ids);
        if (reraised == NULL && PyErr_Occurred()) {
            goto done;
        }
    }
    if (PyList_GET_SIZE(raised) == 0) {
        result = reraised != NULL ? Py_NewRef(reraised) : Py_NewRef(Py_None);
        goto done;
    }
    if (reraised != NULL && PyList_Append(raised, reraised) < 0) {
        goto done;
    }
    if (PyList_GET_SIZE(raised) > 1) {
        result = new_anonymous_group(raised);
    }
    else {
        result = Py_NewRef(PyList_GET_ITEM(raised, 0));
    }
done:
    Py_XDECREF(raised);
    Py_XDECREF(ids);
    Py_XDECREF(reraised);
    return result;
}
