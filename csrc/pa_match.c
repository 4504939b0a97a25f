/* pa_match.c -- MATCH_CLASS and MATCH_KEYS: the look-ups of a `match` statement.
 *
 * CPython 3.11 does these in static functions of its loop (match_class, match_keys), which
 * libpython does not export.  They used to be Python functions (pyadapt._runtime), called
 * from pyadapt's loop: their frames were then part of the program's stack, so a property or
 * __getattr__ run by a class pattern saw `_match_class_attr` as its caller
 * (sys._getframe(1)), an exception from it lost its own traceback entries, and a signal
 * handler could be handed a frame of pyadapt/_runtime.py (tests/regressions/
 * match_helpers_invisible.py).  Here they are C: no frame, no eval breaker of their own; the
 * program's code they call (isinstance hooks, attribute getters, a mapping's get) runs with
 * the matching frame as its caller, as natively.
 *
 * Behaviour (results, exception types and messages) is CPython 3.11.7's;
 * tests/test_runtime_helpers.py checks it against the running interpreter's own match
 * statement.
 */
#include "pa_internal.h"

/* The attribute names looked up (pa_interned). */
static PyObject *str_match_args, *str_get;

/* One attribute for a class pattern: a new reference; NULL with no error set when the
 * subject has no such attribute (no match); NULL with an error set on failure. */
static PyObject *
class_pattern_attr(PyObject *subject, PyTypeObject *cls, PyObject *name, PyObject *seen)
{
    int dup = PySet_Contains(seen, name);
    if (dup < 0) {
        return NULL;
    }
    if (dup) {
        PyErr_Format(PyExc_TypeError, "%s() got multiple sub-patterns for attribute %R",
                     cls->tp_name, name);
        return NULL;
    }
    if (PySet_Add(seen, name) < 0) {
        return NULL;
    }
    PyObject *attr = PyObject_GetAttr(subject, name);
    if (attr == NULL && PyErr_ExceptionMatches(PyExc_AttributeError)) {
        PyErr_Clear();
    }
    return attr;
}

/* Append the attribute `name` of the subject to `attrs`: 1 done, 0 no such attribute (no
 * match), -1 error. */
static int
append_class_pattern_attr(PyObject *subject, PyTypeObject *cls, PyObject *name, PyObject *seen,
                          PyObject *attrs)
{
    PyObject *attr = class_pattern_attr(subject, cls, name, seen);
    if (attr == NULL) {
        return PyErr_Occurred() ? -1 : 0;
    }
    int err = PyList_Append(attrs, attr);
    Py_DECREF(attr);
    return err < 0 ? -1 : 1;
}

/* `case cls(<nargs positional sub-patterns>, <names>=...)`: a new tuple of the attributes
 * (positional ones first), or Py_None (new reference) when the subject does not match;
 * NULL with an exception set. */
PyObject *
pa_match_class(PyObject *subject, PyObject *type, Py_ssize_t nargs, PyObject *names)
{
    if (!PyType_Check(type)) {
        PyErr_SetString(PyExc_TypeError, PA_MATCH_NOT_A_CLASS_MSG);
        return NULL;
    }
    PyTypeObject *cls = (PyTypeObject *)type;
    int is = PyObject_IsInstance(subject, type);
    if (is < 0) {
        return NULL;
    }
    if (!is) {
        Py_RETURN_NONE;
    }
    PyObject *seen = PySet_New(NULL);
    PyObject *attrs = PyList_New(0);
    PyObject *match_args = NULL;
    PyObject *result = NULL;
    if (seen == NULL || attrs == NULL) {
        goto done;
    }
    if (nargs > 0) {
        int match_self = 0;
        PyObject *name = pa_interned(&str_match_args, "__match_args__");
        match_args = name != NULL ? PyObject_GetAttr(type, name) : NULL;
        if (match_args != NULL) {
            if (!PyTuple_CheckExact(match_args)) {
                PyErr_Format(PyExc_TypeError, "%s.__match_args__ must be a tuple (got %s)",
                             cls->tp_name, Py_TYPE(match_args)->tp_name);
                goto done;
            }
        }
        else if (name != NULL && PyErr_ExceptionMatches(PyExc_AttributeError)) {
            /* the type's "match self" flag counts only when there is no __match_args__ */
            PyErr_Clear();
            match_args = PyTuple_New(0);
            if (match_args == NULL) {
                goto done;
            }
            match_self = PyType_HasFeature(cls, _Py_TPFLAGS_MATCH_SELF);
        }
        else {
            goto done;
        }
        Py_ssize_t allowed = match_self ? 1 : PyTuple_GET_SIZE(match_args);
        if (allowed < nargs) {
            PyErr_Format(PyExc_TypeError, "%s() accepts %zd positional sub-pattern%s (%zd given)",
                         cls->tp_name, allowed, allowed == 1 ? "" : "s", nargs);
            goto done;
        }
        if (match_self) {
            if (PyList_Append(attrs, subject) < 0) {
                goto done;
            }
        }
        else {
            for (Py_ssize_t i = 0; i < nargs; i++) {
                PyObject *name = PyTuple_GET_ITEM(match_args, i);
                if (!PyUnicode_CheckExact(name)) {
                    PyErr_Format(PyExc_TypeError,
                                 "__match_args__ elements must be strings (got %s)",
                                 Py_TYPE(name)->tp_name);
                    goto done;
                }
                int got = append_class_pattern_attr(subject, cls, name, seen, attrs);
                if (got <= 0) {
                    result = got == 0 ? Py_NewRef(Py_None) : NULL;
                    goto done;
                }
            }
        }
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(names); i++) {
        int got = append_class_pattern_attr(subject, cls, PyTuple_GET_ITEM(names, i), seen, attrs);
        if (got <= 0) {
            result = got == 0 ? Py_NewRef(Py_None) : NULL;
            goto done;
        }
    }
    result = PyList_AsTuple(attrs);
done:
    Py_XDECREF(match_args);
    Py_XDECREF(seen);
    Py_XDECREF(attrs);
    return result;
}

/* `case {k1: ..., k2: ...}` on a mapping: a new tuple of the values of `keys` (a tuple),
 * looked up with subject.get(key, <sentinel>) so that no __missing__ runs, or Py_None (new
 * reference) as soon as one is absent; NULL with an exception set (a repeated key is a
 * ValueError). */
PyObject *
pa_match_keys(PyObject *subject, PyObject *keys)
{
    Py_ssize_t n = PyTuple_GET_SIZE(keys);
    if (n == 0) {
        return PyTuple_New(0);
    }
    PyObject *name = pa_interned(&str_get, "get");
    PyObject *get = name != NULL ? PyObject_GetAttr(subject, name) : NULL;
    if (get == NULL) {
        return NULL;
    }
    PyObject *seen = PySet_New(NULL);
    PyObject *dummy = PyObject_CallNoArgs((PyObject *)&PyBaseObject_Type);
    PyObject *values = PyTuple_New(n);
    PyObject *result = NULL;
    if (seen == NULL || dummy == NULL || values == NULL) {
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *key = PyTuple_GET_ITEM(keys, i);
        int dup = PySet_Contains(seen, key);
        if (dup < 0) {
            goto done;
        }
        if (dup) {
            PyErr_Format(PyExc_ValueError, "mapping pattern checks duplicate key (%R)", key);
            goto done;
        }
        if (PySet_Add(seen, key) < 0) {
            goto done;
        }
        PyObject *args[2] = {key, dummy};
        PyObject *value = PyObject_Vectorcall(get, args, 2, NULL);
        if (value == NULL) {
            goto done;
        }
        if (value == dummy) {
            Py_DECREF(value);
            result = Py_NewRef(Py_None);
            goto done;
        }
        PyTuple_SET_ITEM(values, i, value);
    }
    result = Py_NewRef(values);
done:
    Py_DECREF(get);
    Py_XDECREF(seen);
    Py_XDECREF(dummy);
    Py_XDECREF(values);
    return result;
}
