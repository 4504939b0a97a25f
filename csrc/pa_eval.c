/* pa_eval.c -- pyadapt's eval loop.
 *
 * pa_execute() evaluates one CPython _PyInterpreterFrame with pyadapt's instructions (the
 * unit the compiler attached to the frame's code object).  Python-to-Python calls push the
 * callee's frame on the thread's frame stack and continue in this same C loop, as
 * CPython's own loop does, so recursion depth is bounded by the recursion limit and not by
 * the C stack.  What differs between CPython versions (frame fields, the thread state,
 * generators, object layouts) is reached through the version seam (pa_seam3XX.h).
 *
 * The frame stays CPython's: locals and the value stack live in frame->localsplus, and
 * its last instruction (PA_FRAME_SET_LAST_INSTR) holds the CPython offset of the
 * instruction being executed (from unit->to_cpy) whenever anything can look at it, so tracebacks, f_lineno, f_lasti,
 * sys._getframe(), tracemalloc and generator introspection see exactly what they see
 * natively.  "Whenever anything can look" is not "at every instruction": see TARGET and
 * PURE_TARGET below.
 */
#include "pa_internal.h"
#include "pa_caches.h"

#include "internal/pycore_moduleobject.h"
#include "internal/pycore_sysmodule.h"
#include "internal/pycore_abstract.h"
#include "internal/pycore_long.h"
#include "frameobject.h"
#include "opcode.h"

#if defined(__GNUC__) || defined(__clang__)
#  define PA_USE_COMPUTED_GOTOS 1
#else
#  define PA_USE_COMPUTED_GOTOS 0
#endif

#define NAME_ERROR_MSG "name '%.200s' is not defined"
#define UNBOUNDLOCAL_ERROR_MSG \
    "cannot access local variable '%s' where it is not associated with a value"
#define UNBOUNDFREE_ERROR_MSG \
    "cannot access free variable '%s' where it is not associated with a value" \
    " in enclosing scope"
/* ------------------------------------------------------------------------------------ */
/* Helpers with the exact semantics (and messages) of CPython 3.11's ceval.c helpers,    */
/* which libpython does not export.                                                      */

static void
format_exc_check_arg(PyThreadState *tstate, PyObject *exc, const char *fmt, PyObject *obj)
{
    if (obj == NULL) {
        return;
    }
    const char *s = PyUnicode_AsUTF8(obj);
    if (s == NULL) {
        return;
    }
    _PyErr_Format(tstate, exc, fmt, s);
    if (exc == PyExc_NameError) {
        /* NameError.name lets the traceback printer offer "Did you mean" suggestions. */
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
        PyErr_NormalizeException(&type, &value, &tb);
        if (PyErr_GivenExceptionMatches(value, PyExc_NameError)
                && ((PyNameErrorObject *)value)->name == NULL) {
            (void)PyObject_SetAttr(value, &_Py_ID(name), obj);
        }
        PyErr_Restore(type, value, tb);
    }
}

static void
format_exc_unbound(PyThreadState *tstate, PyCodeObject *co, int oparg)
{
    if (_PyErr_Occurred(tstate)) {
        return;
    }
    PyObject *name = PyTuple_GET_ITEM(co->co_localsplusnames, oparg);
    if (oparg < co->co_nlocalsplus - co->co_nfreevars) {     /* a local or a cell, not a free variable */
        format_exc_check_arg(tstate, PyExc_UnboundLocalError, UNBOUNDLOCAL_ERROR_MSG, name);
    }
    else {
        format_exc_check_arg(tstate, PyExc_NameError, UNBOUNDFREE_ERROR_MSG, name);
    }
}

/* Store argcnt values (and a list for the starred target) below sp.  Returns 1 on
 * success, 0 with an exception set. */
static int
unpack_iterable(PyThreadState *tstate, PyObject *v, int argcnt, int argcntafter,
                PyObject **sp)
{
    int i = 0;
    PyObject *it = PyObject_GetIter(v);
    if (it == NULL) {
        if (_PyErr_ExceptionMatches(tstate, PyExc_TypeError)
                && Py_TYPE(v)->tp_iter == NULL && !PySequence_Check(v)) {
            _PyErr_Format(tstate, PyExc_TypeError,
                          "cannot unpack non-iterable %.200s object", Py_TYPE(v)->tp_name);
        }
        return 0;
    }
    for (; i < argcnt; i++) {
        PyObject *w = PyIter_Next(it);
        if (w == NULL) {
            if (!_PyErr_Occurred(tstate)) {
                if (argcntafter == -1) {
                    _PyErr_Format(tstate, PyExc_ValueError,
                                  "not enough values to unpack (expected %d, got %d)",
                                  argcnt, i);
                }
                else {
                    _PyErr_Format(tstate, PyExc_ValueError,
                                  "not enough values to unpack "
                                  "(expected at least %d, got %d)",
                                  argcnt + argcntafter, i);
                }
            }
            goto fail;
        }
        *--sp = w;
    }
    if (argcntafter == -1) {
        PyObject *w = PyIter_Next(it);
        if (w == NULL) {
            if (_PyErr_Occurred(tstate)) {
                goto fail;
            }
            Py_DECREF(it);
            return 1;
        }
        Py_DECREF(w);
        _PyErr_Format(tstate, PyExc_ValueError,
                      "too many values to unpack (expected %d)", argcnt);
        goto fail;
    }
    PyObject *l = PySequence_List(it);
    if (l == NULL) {
        goto fail;
    }
    *--sp = l;
    i++;
    Py_ssize_t ll = PyList_GET_SIZE(l);
    if (ll < argcntafter) {
        _PyErr_Format(tstate, PyExc_ValueError,
                      "not enough values to unpack (expected at least %d, got %zd)",
                      argcnt + argcntafter, argcnt + ll);
        goto fail;
    }
    for (int j = argcntafter; j > 0; j--, i++) {
        *--sp = PyList_GET_ITEM(l, ll - j);
    }
    Py_SET_SIZE(l, ll - argcntafter);
    Py_DECREF(it);
    return 1;
fail:
    for (; i > 0; i--, sp++) {
        Py_DECREF(*sp);
    }
    Py_DECREF(it);
    return 0;
}

/* raise / raise exc / raise exc from cause.  Consumes exc and cause.  Returns 1 for a
 * bare re-raise (traceback kept, no new entry), 0 otherwise; an exception is set. */
static int
do_raise(PyThreadState *tstate, PyObject *exc, PyObject *cause)
{
    PyObject *type = NULL, *value = NULL;
    if (exc == NULL) {
        _PyErr_StackItem *exc_info = _PyErr_GetTopmostException(tstate);
        value = exc_info->exc_value;
        if (value == NULL || Py_IsNone(value)) {
            _PyErr_SetString(tstate, PyExc_RuntimeError, "No active exception to reraise");
            return 0;
        }
        type = Py_NewRef(PyExceptionInstance_Class(value));
        Py_INCREF(value);
        _PyErr_Restore(tstate, type, value, PyException_GetTraceback(value));
        return 1;
    }
    if (PyExceptionClass_Check(exc)) {
        type = exc;
        value = PyObject_CallNoArgs(exc);
        if (value == NULL) {
            goto raise_error;
        }
        if (!PyExceptionInstance_Check(value)) {
            _PyErr_Format(tstate, PyExc_TypeError,
                          "calling %R should have returned an instance of "
                          "BaseException, not %R", type, Py_TYPE(value));
            goto raise_error;
        }
    }
    else if (PyExceptionInstance_Check(exc)) {
        value = exc;
        type = Py_NewRef(PyExceptionInstance_Class(exc));
    }
    else {
        Py_DECREF(exc);
        _PyErr_SetString(tstate, PyExc_TypeError, "exceptions must derive from BaseException");
        goto raise_error;
    }
    if (cause != NULL) {
        PyObject *fixed_cause;
        if (PyExceptionClass_Check(cause)) {
            fixed_cause = PyObject_CallNoArgs(cause);
            if (fixed_cause == NULL) {
                goto raise_error;
            }
            if (PA_RAISE_CHECKS_CAUSE_INSTANCE && !PyExceptionInstance_Check(fixed_cause)) {
                _PyErr_Format(tstate, PyExc_TypeError,
                              "calling %R should have returned an instance of "
                              "BaseException, not %R", cause, Py_TYPE(fixed_cause));
                Py_DECREF(fixed_cause);
                goto raise_error;
            }
            Py_DECREF(cause);
        }
        else if (PyExceptionInstance_Check(cause)) {
            fixed_cause = cause;
        }
        else if (Py_IsNone(cause)) {
            Py_DECREF(cause);
            fixed_cause = NULL;
        }
        else {
            _PyErr_SetString(tstate, PyExc_TypeError,
                             "exception causes must derive from BaseException");
            goto raise_error;
        }
        cause = NULL;
        PyException_SetCause(value, fixed_cause);
    }
    _PyErr_SetObject(tstate, type, value);
    Py_DECREF(value);
    Py_DECREF(type);
    return 0;
raise_error:
    Py_XDECREF(value);
    Py_XDECREF(type);
    Py_XDECREF(cause);
    return 0;
}

static int
check_args_iterable(PyThreadState *tstate, PyObject *func, PyObject *args)
{
    if (Py_TYPE(args)->tp_iter == NULL && !PySequence_Check(args)) {
        _PyErr_Clear(tstate);
        PyObject *funcstr = _PyObject_FunctionStr(func);
        if (funcstr != NULL) {
            _PyErr_Format(tstate, PyExc_TypeError,
                          "%U argument after * must be an iterable, not %.200s",
                          funcstr, Py_TYPE(args)->tp_name);
            Py_DECREF(funcstr);
        }
        return -1;
    }
    return 0;
}

static void
format_kwargs_error(PyThreadState *tstate, PyObject *func, PyObject *kwargs)
{
    if (_PyErr_ExceptionMatches(tstate, PyExc_AttributeError)) {
        _PyErr_Clear(tstate);
        PyObject *funcstr = _PyObject_FunctionStr(func);
        if (funcstr != NULL) {
            _PyErr_Format(tstate, PyExc_TypeError,
                          "%U argument after ** must be a mapping, not %.200s",
                          funcstr, Py_TYPE(kwargs)->tp_name);
            Py_DECREF(funcstr);
        }
    }
    else if (_PyErr_ExceptionMatches(tstate, PyExc_KeyError)) {
        PyObject *exc, *val, *tb;
        _PyErr_Fetch(tstate, &exc, &val, &tb);
        PyObject *key = PA_MERGE_KEYERROR_KEY(val);
        if (key != NULL) {
            PyObject *funcstr = _PyObject_FunctionStr(func);
            if (funcstr != NULL) {
                _PyErr_Format(tstate, PyExc_TypeError,
                              "%U got multiple values for keyword argument '%S'",
                              funcstr, key);
                Py_DECREF(funcstr);
            }
            Py_XDECREF(exc);
            Py_XDECREF(val);
            Py_XDECREF(tb);
        }
        else {
            _PyErr_Restore(tstate, exc, val, tb);
        }
    }
}

static void
format_awaitable_error(PyThreadState *tstate, PyTypeObject *type, int oparg)
{
    if (type->tp_as_async == NULL || type->tp_as_async->am_await == NULL) {
        if (oparg == 1) {
            _PyErr_Format(tstate, PyExc_TypeError,
                          "'async with' received an object from __aenter__ "
                          "that does not implement __await__: %.100s", type->tp_name);
        }
        else if (oparg == 2) {
            _PyErr_Format(tstate, PyExc_TypeError,
                          "'async with' received an object from __aexit__ "
                          "that does not implement __await__: %.100s", type->tp_name);
        }
    }
}

static int
gen_is_coroutine(PyObject *o)
{
    return PyGen_CheckExact(o)
        && (PA_GEN_CODE((PyGenObject *)o)->co_flags & CO_ITERABLE_COROUTINE);
}

/* The iterator `await o` drives (CPython's _PyCoro_GetAwaitableIter). */
static PyObject *
get_awaitable_iter(PyObject *o)
{
    PyTypeObject *ot = Py_TYPE(o);
    if (PyCoro_CheckExact(o) || gen_is_coroutine(o)) {
        return Py_NewRef(o);
    }
    unaryfunc getter = ot->tp_as_async != NULL ? ot->tp_as_async->am_await : NULL;
    if (getter != NULL) {
        PyObject *res = getter(o);
        if (res != NULL) {
            if (PyCoro_CheckExact(res) || gen_is_coroutine(res)) {
                PyErr_SetString(PyExc_TypeError, "__await__() returned a coroutine");
                Py_CLEAR(res);
            }
            else if (!PyIter_Check(res)) {
                PyErr_Format(PyExc_TypeError,
                             "__await__() returned non-iterator of type '%.100s'",
                             Py_TYPE(res)->tp_name);
                Py_CLEAR(res);
            }
        }
        return res;
    }
    PyErr_Format(PyExc_TypeError, "object %.100s can't be used in 'await' expression",
                 ot->tp_name);
    return NULL;
}

#ifndef PA_SEAM_ASYNC_GEN_WRAP     /* a seam may give it (3.13) */
typedef struct {
    PyObject_HEAD
    PyObject *agw_val;
} pa_async_gen_wrapped;

/* The value an async generator yields is wrapped so that its asend() can tell a yield
 * from an await; the wrapper type is exported, its constructor is not. */
static PyObject *
async_gen_wrap(PyObject *val)
{
    pa_async_gen_wrapped *o =
        PyObject_GC_New(pa_async_gen_wrapped, &_PyAsyncGenWrappedValue_Type);
    if (o == NULL) {
        return NULL;
    }
    o->agw_val = Py_NewRef(val);
    PyObject_GC_Track((PyObject *)o);
    return (PyObject *)o;
}
#endif

static PyObject *
import_name(PyThreadState *tstate, _PyInterpreterFrame *frame,
            PyObject *name, PyObject *fromlist, PyObject *level)
{
    PyObject *import_func;
    if (PA_BUILTINS_LOOKUP(frame->f_builtins, &_Py_ID(__import__), &import_func) <= 0) {
        if (!_PyErr_Occurred(tstate)) {
            _PyErr_SetString(tstate, PyExc_ImportError, "__import__ not found");
        }
        return NULL;
    }
    PyObject *locals = frame->f_locals;
    PyObject *res;
    if (import_func == PA_INTERP_IMPORT_FUNC(tstate->interp)) {
        int ilevel = _PyLong_AsInt(level);
        res = ilevel == -1 && _PyErr_Occurred(tstate) ? NULL
              : PyImport_ImportModuleLevelObject(name, frame->f_globals,
                                                 locals == NULL ? Py_None : locals,
                                                 fromlist, ilevel);
    }
    else {
        PyObject *stack[5] = {name, frame->f_globals, locals == NULL ? Py_None : locals,
                              fromlist, level};
        res = PyObject_Vectorcall(import_func, stack, 5, NULL);
    }
    Py_DECREF(import_func);
    return res;
}

static int
module_spec_is_initializing(PyObject *spec)
{
    if (spec == NULL) {
        return 0;
    }
    PyObject *value;
    if (_PyObject_LookupAttr(spec, &_Py_ID(_initializing), &value) <= 0) {
        PyErr_Clear();
        return 0;
    }
    int res = PyObject_IsTrue(value);
    Py_DECREF(value);
    if (res < 0) {
        PyErr_Clear();
        return 0;
    }
    return res;
}

static PyObject *
import_from(PyThreadState *tstate, PyObject *v, PyObject *name)
{
    PyObject *x;
    if (_PyObject_LookupAttr(v, name, &x) != 0) {
        return x;
    }
    /* A circular relative import may not have set the attribute yet: try sys.modules. */
    PyObject *pkgname = PyObject_GetAttr(v, &_Py_ID(__name__));
    if (pkgname == NULL) {
        goto error;
    }
    if (!PyUnicode_Check(pkgname)) {
        Py_CLEAR(pkgname);
        goto error;
    }
    PyObject *fullmodname = PyUnicode_FromFormat("%U.%U", pkgname, name);
    if (fullmodname == NULL) {
        Py_DECREF(pkgname);
        return NULL;
    }
    x = PyImport_GetModule(fullmodname);
    Py_DECREF(fullmodname);
    if (x == NULL && !_PyErr_Occurred(tstate)) {
        goto error;
    }
    Py_DECREF(pkgname);
    return x;
error:;
    PyObject *pkgpath = PyModule_GetFilenameObject(v);
    PyObject *pkgname_or_unknown, *errmsg;
    if (pkgname == NULL) {
        pkgname_or_unknown = PyUnicode_FromString("<unknown module name>");
        if (pkgname_or_unknown == NULL) {
            Py_XDECREF(pkgpath);
            return NULL;
        }
    }
    else {
        pkgname_or_unknown = pkgname;
    }
    if (pkgpath == NULL || !PyUnicode_Check(pkgpath)) {
        _PyErr_Clear(tstate);
        errmsg = PyUnicode_FromFormat("cannot import name %R from %R (unknown location)",
                                      name, pkgname_or_unknown);
        PyErr_SetImportError(errmsg, pkgname, NULL);
        PA_IMPORT_ERROR_NAME_FROM(name);
    }
    else {
        PyObject *spec = PyObject_GetAttr(v, &_Py_ID(__spec__));
        if (spec == NULL) {
            PyErr_Clear();
        }
        const char *fmt = module_spec_is_initializing(spec)
            ? "cannot import name %R from partially initialized module %R "
              "(most likely due to a circular import) (%S)"
            : "cannot import name %R from %R (%S)";
        Py_XDECREF(spec);
        errmsg = PyUnicode_FromFormat(fmt, name, pkgname_or_unknown, pkgpath);
        PyErr_SetImportError(errmsg, pkgname, pkgpath);
        PA_IMPORT_ERROR_NAME_FROM(name);
    }
    Py_XDECREF(errmsg);
    Py_XDECREF(pkgname_or_unknown);
    Py_XDECREF(pkgpath);
    return NULL;
}

static int
import_all_from(PyThreadState *tstate, PyObject *locals, PyObject *v)
{
    PyObject *all, *dict;
    int skip_leading_underscores = 0, err = 0;
    if (_PyObject_LookupAttr(v, &_Py_ID(__all__), &all) < 0) {
        return -1;
    }
    if (all == NULL) {
        if (_PyObject_LookupAttr(v, &_Py_ID(__dict__), &dict) < 0) {
            return -1;
        }
        if (dict == NULL) {
            _PyErr_SetString(tstate, PyExc_ImportError,
                             "from-import-* object has no __dict__ and no __all__");
            return -1;
        }
        all = PyMapping_Keys(dict);
        Py_DECREF(dict);
        if (all == NULL) {
            return -1;
        }
        skip_leading_underscores = 1;
    }
    for (Py_ssize_t pos = 0; ; pos++) {
        PyObject *name = PySequence_GetItem(all, pos);
        if (name == NULL) {
            if (!_PyErr_ExceptionMatches(tstate, PyExc_IndexError)) {
                err = -1;
            }
            else {
                _PyErr_Clear(tstate);
            }
            break;
        }
        if (!PyUnicode_Check(name)) {
            PyObject *modname = PyObject_GetAttr(v, &_Py_ID(__name__));
            if (modname == NULL) {
                Py_DECREF(name);
                err = -1;
                break;
            }
            if (!PyUnicode_Check(modname)) {
                _PyErr_Format(tstate, PyExc_TypeError,
                              "module __name__ must be a string, not %.100s",
                              Py_TYPE(modname)->tp_name);
            }
            else {
                _PyErr_Format(tstate, PyExc_TypeError, "%s in %U.%s must be str, not %.100s",
                              skip_leading_underscores ? "Key" : "Item", modname,
                              skip_leading_underscores ? "__dict__" : "__all__",
                              Py_TYPE(name)->tp_name);
            }
            Py_DECREF(modname);
            Py_DECREF(name);
            err = -1;
            break;
        }
        if (skip_leading_underscores && PyUnicode_GET_LENGTH(name) > 0
                && PyUnicode_READ_CHAR(name, 0) == '_') {
            Py_DECREF(name);
            continue;
        }
        PyObject *value = PyObject_GetAttr(v, name);
        if (value == NULL) {
            err = -1;
        }
        else if (PyDict_CheckExact(locals)) {
            err = PyDict_SetItem(locals, name, value);
        }
        else {
            err = PyObject_SetItem(locals, name, value);
        }
        Py_DECREF(name);
        Py_XDECREF(value);
        if (err != 0) {
            break;
        }
    }
    Py_DECREF(all);
    return err;
}

static binaryfunc binary_ops[] = {
    PyNumber_Add, PyNumber_And, PyNumber_FloorDivide, PyNumber_Lshift,
    PyNumber_MatrixMultiply, PyNumber_Multiply, PyNumber_Remainder, PyNumber_Or,
    NULL /* power */, PyNumber_Rshift, PyNumber_Subtract, PyNumber_TrueDivide,
    PyNumber_Xor,
    PyNumber_InPlaceAdd, PyNumber_InPlaceAnd, PyNumber_InPlaceFloorDivide,
    PyNumber_InPlaceLshift, PyNumber_InPlaceMatrixMultiply, PyNumber_InPlaceMultiply,
    PyNumber_InPlaceRemainder, PyNumber_InPlaceOr, NULL /* inplace power */,
    PyNumber_InPlaceRshift, PyNumber_InPlaceSubtract, PyNumber_InPlaceTrueDivide,
    PyNumber_InPlaceXor,
};

/* ---- argument binding for inlined calls (CPython 3.11's initialize_locals) ---- */

/* "a", "a and b", "a, b, and c" -- for the "missing arguments" message. */
static void
format_missing(PyThreadState *tstate, const char *kind, PyObject *names, PyObject *qualname)
{
    Py_ssize_t len = PyList_GET_SIZE(names);
    PyObject *name_str = NULL;
    if (len == 1) {
        name_str = Py_NewRef(PyList_GET_ITEM(names, 0));
    }
    else if (len == 2) {
        name_str = PyUnicode_FromFormat("%U and %U", PyList_GET_ITEM(names, 0),
                                        PyList_GET_ITEM(names, 1));
    }
    else {
        PyObject *tail = PyUnicode_FromFormat(", %U, and %U", PyList_GET_ITEM(names, len - 2),
                                              PyList_GET_ITEM(names, len - 1));
        PyObject *head = NULL, *sep = NULL, *first = NULL;
        if (tail != NULL) {
            first = PyList_GetSlice(names, 0, len - 2);
            sep = PyUnicode_FromString(", ");
        }
        if (first != NULL && sep != NULL) {
            head = PyUnicode_Join(sep, first);
        }
        if (head != NULL) {
            name_str = PyUnicode_Concat(head, tail);
        }
        Py_XDECREF(tail);
        Py_XDECREF(head);
        Py_XDECREF(sep);
        Py_XDECREF(first);
    }
    if (name_str == NULL) {
        return;
    }
    _PyErr_Format(tstate, PyExc_TypeError, "%U() missing %i required %s argument%s: %U",
                  qualname, (int)len, kind, len == 1 ? "" : "s", name_str);
    Py_DECREF(name_str);
}

static void
missing_arguments(PyThreadState *tstate, PyCodeObject *co, Py_ssize_t defcount,
                  PyObject **localsplus, PyObject *qualname, int positional)
{
    Py_ssize_t start = positional ? 0 : co->co_argcount;
    Py_ssize_t end = positional ? co->co_argcount - defcount
                                : co->co_argcount + co->co_kwonlyargcount;
    PyObject *names = PyList_New(0);
    if (names == NULL) {
        return;
    }
    for (Py_ssize_t i = start; i < end; i++) {
        if (localsplus[i] == NULL) {
            PyObject *repr = PyObject_Repr(PyTuple_GET_ITEM(co->co_localsplusnames, i));
            if (repr == NULL || PyList_Append(names, repr) < 0) {
                Py_XDECREF(repr);
                Py_DECREF(names);
                return;
            }
            Py_DECREF(repr);
        }
    }
    format_missing(tstate, positional ? "positional" : "keyword-only", names, qualname);
    Py_DECREF(names);
}

static void
too_many_positional(PyThreadState *tstate, PyCodeObject *co, Py_ssize_t given,
                    PyObject *defaults, PyObject **localsplus, PyObject *qualname)
{
    Py_ssize_t argcount = co->co_argcount, kwonly_given = 0;
    for (Py_ssize_t i = argcount; i < argcount + co->co_kwonlyargcount; i++) {
        if (localsplus[i] != NULL) {
            kwonly_given++;
        }
    }
    Py_ssize_t defcount = defaults == NULL ? 0 : PyTuple_GET_SIZE(defaults);
    int plural;
    PyObject *sig;
    if (defcount) {
        plural = 1;
        sig = PyUnicode_FromFormat("from %zd to %zd", argcount - defcount, argcount);
    }
    else {
        plural = argcount != 1;
        sig = PyUnicode_FromFormat("%zd", argcount);
    }
    if (sig == NULL) {
        return;
    }
    PyObject *kwonly_sig;
    if (kwonly_given) {
        kwonly_sig = PyUnicode_FromFormat(
            " positional argument%s (and %zd keyword-only argument%s)",
            given != 1 ? "s" : "", kwonly_given, kwonly_given != 1 ? "s" : "");
    }
    else {
        kwonly_sig = PyUnicode_FromString("");
    }
    if (kwonly_sig == NULL) {
        Py_DECREF(sig);
        return;
    }
    _PyErr_Format(tstate, PyExc_TypeError,
                  "%U() takes %U positional argument%s but %zd%U %s given",
                  qualname, sig, plural ? "s" : "", given, kwonly_sig,
                  given == 1 && !kwonly_given ? "was" : "were");
    Py_DECREF(sig);
    Py_DECREF(kwonly_sig);
}

/* Positional-only parameters passed by keyword into a function without **kwargs. */
static int
positional_only_passed_as_keyword(PyThreadState *tstate, PyCodeObject *co,
                                  PyObject *kwnames, PyObject *qualname)
{
    PyObject *conflicts = PyList_New(0);
    if (conflicts == NULL) {
        return 1;
    }
    for (int k = 0; k < co->co_posonlyargcount; k++) {
        PyObject *posonly = PyTuple_GET_ITEM(co->co_localsplusnames, k);
        for (Py_ssize_t k2 = 0; k2 < PyTuple_GET_SIZE(kwnames); k2++) {
            PyObject *kw = PyTuple_GET_ITEM(kwnames, k2);
            int eq = kw == posonly ? 1 : PyObject_RichCompareBool(posonly, kw, Py_EQ);
            if (eq < 0 || (eq > 0 && PyList_Append(conflicts, kw) < 0)) {
                Py_DECREF(conflicts);
                return 1;
            }
        }
    }
    if (PyList_GET_SIZE(conflicts) > 0) {
        PyObject *sep = PyUnicode_FromString(", ");
        PyObject *joined = sep ? PyUnicode_Join(sep, conflicts) : NULL;
        if (joined != NULL) {
            _PyErr_Format(tstate, PyExc_TypeError,
                          "%U() got some positional-only arguments passed as keyword "
                          "arguments: '%U'", qualname, joined);
        }
        Py_XDECREF(sep);
        Py_XDECREF(joined);
        Py_DECREF(conflicts);
        return 1;
    }
    Py_DECREF(conflicts);
    return 0;
}

/* Bind a call's arguments into a new frame's locals, with CPython's semantics and
 * messages.  Takes over the references of all arguments (args[0:argcount+len(kwnames)]),
 * whether it succeeds or not; on failure, what it stored in localsplus is released with
 * the frame. */
static int
bind_arguments(PyThreadState *tstate, PyFunctionObject *func, PyObject **localsplus,
               PyObject **args, Py_ssize_t argcount, PyObject *kwnames)
{
    PyCodeObject *co = (PyCodeObject *)func->func_code;
    Py_ssize_t total_args = co->co_argcount + co->co_kwonlyargcount;
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    PyObject *kwdict = NULL;
    Py_ssize_t i = 0, j;

    if (co->co_flags & CO_VARKEYWORDS) {
        kwdict = PyDict_New();
        if (kwdict == NULL) {
            for (j = 0; j < argcount + nkw; j++) {
                Py_DECREF(args[j]);
            }
            return -1;
        }
        localsplus[total_args + ((co->co_flags & CO_VARARGS) != 0)] = kwdict;
    }
    Py_ssize_t n = Py_MIN(argcount, (Py_ssize_t)co->co_argcount);
    for (j = 0; j < n; j++) {
        localsplus[j] = args[j];
    }
    if (co->co_flags & CO_VARARGS) {
        PyObject *rest = PyTuple_New(argcount - n);
        if (rest == NULL) {
            for (j = n; j < argcount + nkw; j++) {
                Py_DECREF(args[j]);
            }
            return -1;
        }
        for (j = n; j < argcount; j++) {
            PyTuple_SET_ITEM(rest, j - n, args[j]);
        }
        localsplus[total_args] = rest;
    }
    else {
        for (j = n; j < argcount; j++) {
            Py_DECREF(args[j]);   /* too many: reported below, after the keywords */
        }
    }

    PyObject **varnames = _PyTuple_ITEMS(co->co_localsplusnames);
    for (i = 0; i < nkw; i++) {
        PyObject *keyword = PyTuple_GET_ITEM(kwnames, i);
        PyObject *value = args[argcount + i];
        if (keyword == NULL || !PyUnicode_Check(keyword)) {
            _PyErr_Format(tstate, PyExc_TypeError, "%U() keywords must be strings",
                          func->func_qualname);
            goto kw_fail;
        }
        for (j = co->co_posonlyargcount; j < total_args; j++) {
            if (varnames[j] == keyword) {
                goto kw_found;
            }
        }
        for (j = co->co_posonlyargcount; j < total_args; j++) {
            int eq = PyObject_RichCompareBool(keyword, varnames[j], Py_EQ);
            if (eq > 0) {
                goto kw_found;
            }
            if (eq < 0) {
                goto kw_fail;
            }
        }
        if (kwdict == NULL) {
            if (co->co_posonlyargcount
                    && positional_only_passed_as_keyword(tstate, co, kwnames,
                                                         func->func_qualname)) {
                goto kw_fail;
            }
            PyObject *suggestion = PA_KEYWORD_SUGGESTION(co, keyword);
            if (suggestion != NULL) {
                _PyErr_Format(tstate, PyExc_TypeError,
                              "%U() got an unexpected keyword argument '%S'. Did you mean '%S'?",
                              func->func_qualname, keyword, suggestion);
                Py_DECREF(suggestion);
            }
            else {
                _PyErr_Format(tstate, PyExc_TypeError,
                              "%U() got an unexpected keyword argument '%S'",
                              func->func_qualname, keyword);
            }
            goto kw_fail;
        }
        if (PyDict_SetItem(kwdict, keyword, value) < 0) {
            goto kw_fail;
        }
        Py_DECREF(value);
        continue;
    kw_found:
        if (localsplus[j] != NULL) {
            _PyErr_Format(tstate, PyExc_TypeError,
                          "%U() got multiple values for argument '%S'",
                          func->func_qualname, keyword);
            goto kw_fail;
        }
        localsplus[j] = value;
    }

    if (argcount > co->co_argcount && !(co->co_flags & CO_VARARGS)) {
        too_many_positional(tstate, co, argcount, func->func_defaults, localsplus,
                            func->func_qualname);
        return -1;
    }
    if (argcount < co->co_argcount) {
        Py_ssize_t defcount = func->func_defaults == NULL ? 0
                                : PyTuple_GET_SIZE(func->func_defaults);
        Py_ssize_t m = co->co_argcount - defcount;
        for (j = argcount; j < m; j++) {
            if (localsplus[j] == NULL) {
                missing_arguments(tstate, co, defcount, localsplus, func->func_qualname, 1);
                return -1;
            }
        }
        for (j = n > m ? n - m : 0; j < defcount; j++) {
            if (localsplus[m + j] == NULL) {
                localsplus[m + j] = Py_NewRef(PyTuple_GET_ITEM(func->func_defaults, j));
            }
        }
    }
    if (co->co_kwonlyargcount > 0) {
        int missing = 0;
        for (j = co->co_argcount; j < total_args; j++) {
            if (localsplus[j] != NULL) {
                continue;
            }
            if (func->func_kwdefaults != NULL) {
                PyObject *def = PyDict_GetItemWithError(func->func_kwdefaults, varnames[j]);
                if (def != NULL) {
                    localsplus[j] = Py_NewRef(def);
                    continue;
                }
                if (_PyErr_Occurred(tstate)) {
                    return -1;
                }
            }
            missing++;
        }
        if (missing) {
            missing_arguments(tstate, co, -1, localsplus, func->func_qualname, 0);
            return -1;
        }
    }
    return 0;

kw_fail:
    for (; i < nkw; i++) {
        Py_DECREF(args[argcount + i]);
    }
    return -1;
}


/* mapping[name] as LOAD_NAME looks it up: a new reference; NULL with no exception set if the
 * mapping has no such key, NULL with one set on error. */
static PyObject *
mapping_lookup(PyThreadState *tstate, PyObject *mapping, PyObject *name)
{
    if (PyDict_CheckExact(mapping)) {
        return Py_XNewRef(PyDict_GetItemWithError(mapping, name));
    }
    PyObject *v = PyObject_GetItem(mapping, name);
    if (v == NULL && _PyErr_ExceptionMatches(tstate, PyExc_KeyError)) {
        _PyErr_Clear(tstate);
    }
    return v;
}

/* LOAD_NAME's look-up: `mapping` (the frame's locals, or the mapping 3.12's
 * LOAD_FROM_DICT_OR_GLOBALS pops), then the globals, then the builtins; NameError if none has
 * `name`.  A new reference, or NULL with an exception set. */
static PyObject *
load_from_mapping_or_globals(PyThreadState *tstate, _PyInterpreterFrame *frame,
                             PyObject *mapping, PyObject *name)
{
    PyObject *v = mapping_lookup(tstate, mapping, name);
    if (v != NULL || _PyErr_Occurred(tstate)) {
        return v;
    }
    v = PyDict_GetItemWithError(frame->f_globals, name);
    if (v != NULL) {
        return Py_NewRef(v);
    }
    if (_PyErr_Occurred(tstate)) {
        return NULL;
    }
    if (PyDict_CheckExact(frame->f_builtins)) {
        v = PyDict_GetItemWithError(frame->f_builtins, name);
        if (v == NULL && !_PyErr_Occurred(tstate)) {
            format_exc_check_arg(tstate, PyExc_NameError, NAME_ERROR_MSG, name);
        }
        return Py_XNewRef(v);
    }
    v = PyObject_GetItem(frame->f_builtins, name);
    if (v == NULL && _PyErr_ExceptionMatches(tstate, PyExc_KeyError)) {
        format_exc_check_arg(tstate, PyExc_NameError, NAME_ERROR_MSG, name);
    }
    return v;
}

/* LOAD_GLOBAL's look-up by name: the globals, then the builtins, through the mapping
 * protocol unless both are exact dicts; NameError if neither has `name`.  A new reference, or
 * NULL with an exception set. */
static PyObject *
load_global_by_name(PyThreadState *tstate, _PyInterpreterFrame *frame, PyObject *name)
{
    PyObject *v;
    if (PyDict_CheckExact(frame->f_globals) && PyDict_CheckExact(frame->f_builtins)) {
        v = PyDict_GetItemWithError(frame->f_globals, name);
        if (v == NULL && !_PyErr_Occurred(tstate)) {
            v = PyDict_GetItemWithError(frame->f_builtins, name);
            if (v == NULL && !_PyErr_Occurred(tstate)) {
                format_exc_check_arg(tstate, PyExc_NameError, NAME_ERROR_MSG, name);
            }
        }
        return Py_XNewRef(v);
    }
    v = PyObject_GetItem(frame->f_globals, name);
    if (v == NULL && _PyErr_ExceptionMatches(tstate, PyExc_KeyError)) {
        _PyErr_Clear(tstate);
        v = PyObject_GetItem(frame->f_builtins, name);
        if (v == NULL && _PyErr_ExceptionMatches(tstate, PyExc_KeyError)) {
            format_exc_check_arg(tstate, PyExc_NameError, NAME_ERROR_MSG, name);
        }
    }
    return v;
}

#ifndef PA_SEAM_DICT_OR_GLOBALS_AS_GLOBAL
#define PA_SEAM_DICT_OR_GLOBALS_AS_GLOBAL 0      /* 3.12: as LOAD_NAME (a seam may differ) */
#endif

/* LOAD_FROM_DICT_OR_GLOBALS's look-up: `mapping`[name], else as the version's form says. */
static PyObject *
load_from_dict_or_globals(PyThreadState *tstate, _PyInterpreterFrame *frame,
                          PyObject *mapping, PyObject *name)
{
    if (!PA_SEAM_DICT_OR_GLOBALS_AS_GLOBAL) {
        return load_from_mapping_or_globals(tstate, frame, mapping, name);
    }
    PyObject *v = mapping_lookup(tstate, mapping, name);
    if (v != NULL || _PyErr_Occurred(tstate)) {
        return v;
    }
    return load_global_by_name(tstate, frame, name);
}

/* LOAD_CLASSDEREF's look-up (3.12's LOAD_FROM_DICT_OR_DEREF): `mapping`[the name of cell
 * `oparg`], else the cell's contents.  A new reference, or NULL with an exception set. */
static PyObject *
load_from_mapping_or_deref(PyThreadState *tstate, _PyInterpreterFrame *frame,
                           PyObject *mapping, int oparg)
{
    PyObject *name = PyTuple_GET_ITEM(PA_FRAME_CODE(frame)->co_localsplusnames, oparg);
    PyObject *value = mapping_lookup(tstate, mapping, name);
    if (value != NULL || _PyErr_Occurred(tstate)) {
        return value;
    }
    value = PyCell_GET(frame->localsplus[oparg]);
    if (value == NULL) {
        format_exc_unbound(tstate, PA_FRAME_CODE(frame), oparg);
        return NULL;
    }
    return Py_NewRef(value);
}

/* PRINT_EXPR (3.12: INTRINSIC_PRINT): sys.displayhook(value); its result or NULL. */
static PyObject *
print_expr(PyThreadState *tstate, PyObject *value)
{
    PyObject *hook = _PySys_GetAttr(tstate, &_Py_ID(displayhook));
    if (hook == NULL) {
        _PyErr_SetString(tstate, PyExc_RuntimeError, "lost sys.displayhook");
        return NULL;
    }
    return PyObject_CallOneArg(hook, value);
}

/* IMPORT_STAR (3.12: INTRINSIC_IMPORT_STAR): from `from` import * into the frame's locals;
 * 0 or -1. */
static int
import_star(PyThreadState *tstate, _PyInterpreterFrame *frame, PyObject *from)
{
    PyFrameObject *f = pa_frame_object(tstate, frame);
    if (f == NULL || PyFrame_FastToLocalsWithError(f) < 0) {
        return -1;
    }
    PyObject *locals = frame->f_locals;
    if (locals == NULL) {
        _PyErr_SetString(tstate, PyExc_SystemError, "no locals found during 'import *'");
        return -1;
    }
    int err = import_all_from(tstate, locals, from);
    PyFrame_LocalsToFast(f, 0);
    return err;
}

/* 3.12's INTRINSIC_STOPITERATION_ERROR, at the handler its compiler wraps around a generator's
 * or coroutine's body: a StopIteration (or an async generator's StopAsyncIteration) leaving
 * the body becomes a RuntimeError caused by it; any other exception passes.  New reference. */
static PyObject *
stopiteration_error(PyThreadState *tstate, _PyInterpreterFrame *frame, PyObject *exc)
{
    int flags = PA_FRAME_CODE(frame)->co_flags;
    const char *msg = NULL;
    if (PyErr_GivenExceptionMatches(exc, PyExc_StopIteration)) {
        msg = flags & CO_ASYNC_GENERATOR ? "async generator raised StopIteration"
              : flags & CO_COROUTINE ? "coroutine raised StopIteration"
              : "generator raised StopIteration";
    }
    else if ((flags & CO_ASYNC_GENERATOR)
             && PyErr_GivenExceptionMatches(exc, PyExc_StopAsyncIteration)) {
        msg = "async generator raised StopAsyncIteration";
    }
    if (msg == NULL) {
        return Py_NewRef(exc);
    }
    PyObject *error = PyObject_CallFunction(PyExc_RuntimeError, "s", msg);
    (void)tstate;
    if (error == NULL) {
        return NULL;
    }
    PyException_SetCause(error, Py_NewRef(exc));
    PyException_SetContext(error, Py_NewRef(exc));
    return error;
}

/* ---- helpers of the specialized forms ---- */

/* CALL_PY_CLASS when the class changed while its new object was allocated: what type_call
 * does after tp_new -- the type's tp_init now, the object on success (steals `self`). */
static PyObject *
init_after_new(PyObject *self, PyObject **args, int nargs)
{
    PyObject *argtuple = PyTuple_New(nargs);
    if (argtuple == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    for (int i = 0; i < nargs; i++) {
        PyTuple_SET_ITEM(argtuple, i, Py_NewRef(args[i]));
    }
    int err = Py_TYPE(self)->tp_init != NULL ? Py_TYPE(self)->tp_init(self, argtuple, NULL) : 0;
    Py_DECREF(argtuple);
    if (err < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return self;
}

/* A new frame for `func` with `nargs` arguments taken from `args` (references stolen, as
 * is the reference to func); the remaining locals are NULL. */
static PA_ALWAYS_INLINE _PyInterpreterFrame *
push_frame_with_args(PyThreadState *tstate, PyFunctionObject *func, PyObject **args, int nargs)
{
    PyCodeObject *code = (PyCodeObject *)func->func_code;
    size_t size = code->co_nlocalsplus + code->co_stacksize + FRAME_SPECIALS_SIZE;
    _PyInterpreterFrame *new_frame = pa_push_frame(tstate, size);
    if (new_frame == NULL) {
        Py_DECREF(func);
        for (int i = 0; i < nargs; i++) {
            Py_DECREF(args[i]);
        }
        return NULL;
    }
    PA_FRAME_INIT_SPECIALS(new_frame, func, NULL, code);
    for (int i = 0; i < nargs; i++) {
        new_frame->localsplus[i] = args[i];
    }
    for (int i = nargs; i < code->co_nlocalsplus; i++) {
        new_frame->localsplus[i] = NULL;
    }
    return new_frame;
}

/* A new frame for `func`, bound by bind_arguments from `nargs` positional arguments, as the
 * generic CALL binds a frame it runs inline (its messages on failure).  Takes the references
 * of func and args[0:nargs] whether it succeeds or not: NULL with an exception set on
 * failure. */
static _PyInterpreterFrame *
push_frame_bound(PyThreadState *tstate, PyFunctionObject *func, PyObject **args, int nargs)
{
    _PyInterpreterFrame *new_frame = push_frame_with_args(tstate, func, args, 0);
    if (new_frame == NULL) {
        for (int i = 0; i < nargs; i++) {
            Py_DECREF(args[i]);
        }
        return NULL;
    }
    PA_ASSERT(((PyCodeObject *)func->func_code)->co_flags & CO_OPTIMIZED);
    if (bind_arguments(tstate, func, new_frame->localsplus, args, nargs, NULL) < 0) {
        pa_clear_and_pop_frame(tstate, new_frame);
        return NULL;
    }
    return new_frame;
}

/* CALL_PY_VARARGS's binding, out of line (the loop's register allocation moves with every
 * handler that grows): a new frame for `func`, called with `nargs` positional arguments and
 * no keywords, at least its required positional parameters and, without *args, at most
 * co_argcount.  As bind_arguments binds them: the arguments fill the positional parameters,
 * those left take their defaults (__defaults__, which the function's version guards), the
 * keyword-only parameters theirs (__kwdefaults__, read at each call: the dict can change in
 * place), the arguments past co_argcount become the *args tuple, and **kwargs is an empty
 * dict.  Where that needs the generic binder -- a keyword-only parameter with no default now,
 * or a __kwdefaults__ whose lookups could run Python code (a key that is not a str) -- the
 * frame is bound by bind_arguments, as the generic CALL binds it (and fails with its error).
 * Takes the references of func and args[0:nargs] whether it succeeds or not: NULL with an
 * exception set on failure. */
static __attribute__((noinline)) _PyInterpreterFrame *
push_frame_general(PyThreadState *tstate, PyFunctionObject *func, PyObject **args, int nargs)
{
    PyCodeObject *code = (PyCodeObject *)func->func_code;
    int argcount = code->co_argcount;
    int kwonly = code->co_kwonlyargcount;
    int flags = code->co_flags;
    int npos = nargs < argcount ? nargs : argcount;
    PyObject *defaults = func->func_defaults;
    if (npos < argcount && (defaults == NULL || PyTuple_GET_SIZE(defaults) < argcount - npos)) {
        return push_frame_bound(tstate, func, args, nargs);
    }
    /* The keyword-only defaults, borrowed: a dict whose keys are all str finds a str without
     * running any code, so nothing can change it before they are taken below. */
    PyObject *kwdefs[PA_KWONLY_MAX];
    if (kwonly > 0) {
        PyObject *kwdefaults = func->func_kwdefaults;
        if (kwonly > PA_KWONLY_MAX || kwdefaults == NULL || !PyDict_CheckExact(kwdefaults)
                || !DK_IS_UNICODE(((PyDictObject *)kwdefaults)->ma_keys)) {
            return push_frame_bound(tstate, func, args, nargs);
        }
        for (int i = 0; i < kwonly; i++) {
            PyObject *name = PyTuple_GET_ITEM(code->co_localsplusnames, argcount + i);
            kwdefs[i] = PyDict_GetItemWithError(kwdefaults, name);
            if (kwdefs[i] == NULL) {
                PA_ASSERT(!_PyErr_Occurred(tstate));
                return push_frame_bound(tstate, func, args, nargs);
            }
        }
    }
    _PyInterpreterFrame *new_frame = push_frame_with_args(tstate, func, args, npos);
    if (new_frame == NULL) {
        for (int i = npos; i < nargs; i++) {
            Py_DECREF(args[i]);
        }
        return NULL;
    }
    for (int i = npos; i < argcount; i++) {
        PyObject *def = PyTuple_GET_ITEM(defaults, PyTuple_GET_SIZE(defaults) - (argcount - i));
        new_frame->localsplus[i] = Py_NewRef(def);
    }
    for (int i = 0; i < kwonly; i++) {
        new_frame->localsplus[argcount + i] = Py_NewRef(kwdefs[i]);
    }
    int slot = argcount + kwonly;
    if (flags & CO_VARARGS) {
        PyObject *rest = PyTuple_New(nargs - npos);
        if (rest == NULL) {
            for (int i = npos; i < nargs; i++) {
                Py_DECREF(args[i]);
            }
            pa_clear_and_pop_frame(tstate, new_frame);
            return NULL;
        }
        for (int i = npos; i < nargs; i++) {
            PyTuple_SET_ITEM(rest, i - npos, args[i]);
        }
        new_frame->localsplus[slot++] = rest;
    }
    if (flags & CO_VARKEYWORDS) {
        PyObject *kwdict = PyDict_New();
        if (kwdict == NULL) {
            pa_clear_and_pop_frame(tstate, new_frame);
            return NULL;
        }
        new_frame->localsplus[slot] = kwdict;
    }
    return new_frame;
}

/* A float result, reusing an operand the stack holds the only reference to; only a new
 * float allocates, so only that path syncs the last instruction (the handlers are PURE_TARGETs; an
 * exact float's deallocation runs no Python code). */
#define FLOAT_RESULT(RES, LEFT, RIGHT, VALUE) \
    do { \
        if (Py_REFCNT(LEFT) == 1) { \
            ((PyFloatObject *)(LEFT))->ob_fval = (VALUE); \
            PA_DECREF_FLOAT(RIGHT); \
            (RES) = (LEFT); \
        } \
        else if (Py_REFCNT(RIGHT) == 1) { \
            ((PyFloatObject *)(RIGHT))->ob_fval = (VALUE); \
            PA_DECREF_FLOAT(LEFT); \
            (RES) = (RIGHT); \
        } \
        else { \
            PA_DECREF_FLOAT(LEFT); \
            PA_DECREF_FLOAT(RIGHT); \
            SYNC_LASTI(); \
            (RES) = PyFloat_FromDouble(VALUE); \
        } \
    } while (0)

/* An int result: a cached small int needs no allocation, so only other values sync
 * the last instruction (for tracemalloc: the handlers are PURE_TARGETs). */
#define INT_RESULT(RES, VALUE) \
    do { \
        long v_ = (VALUE); \
        if ((unsigned long)(v_ + _PY_NSMALLNEGINTS) \
                < (unsigned long)(_PY_NSMALLNEGINTS + _PY_NSMALLPOSINTS)) { \
            (RES) = Py_NewRef((PyObject *)&_PyLong_SMALL_INTS[_PY_NSMALLNEGINTS + v_]); \
        } \
        else { \
            SYNC_LASTI(); \
            (RES) = PyLong_FromLong(v_); \
        } \
    } while (0)

/* The int forms' path when the operands are not both one digit.  Ints of at most two
 * digits (|x| < 2**60) are computed in C when the result fits a long (base64's 32- and
 * 40-bit words: `acc * 85 + d`, `c >> 30`, `c & 0x3ff`); anything else goes to int's own
 * slot, which is what PyNumber_<op> calls for two exact ints, without its dispatch.  `op`
 * is an NB_* code without the in-place offset.  Out of line, so that the handlers keep
 * only their one-digit path. */
static PyObject * __attribute__((noinline))
long_binop_wide(PyObject *left, PyObject *right, int op)
{
    long a, b, v;
    if (pa_long_two_digits(left, &a) && pa_long_two_digits(right, &b)) {
        switch (op) {
        case NB_ADD: return PyLong_FromLong(a + b);        /* |a + b| < 2**61 */
        case NB_SUBTRACT: return PyLong_FromLong(a - b);
        case NB_MULTIPLY:
            if (!__builtin_mul_overflow(a, b, &v)) {
                return PyLong_FromLong(v);
            }
            break;
        /* two's complement on 64 bits is Python's infinite one for |x| < 2**60 */
        case NB_AND: return PyLong_FromLong(a & b);
        case NB_OR: return PyLong_FromLong(a | b);
        case NB_XOR: return PyLong_FromLong(a ^ b);
        case NB_RSHIFT:
            if (b >= 0) {   /* gcc's >> of a negative long is arithmetic: Python's floor */
                return PyLong_FromLong(a >> (b > 63 ? 63 : b));
            }
            break;          /* a negative count: int's ValueError */
        case NB_LSHIFT:
            if (b >= 0 && b < 63) {
                v = (long)((unsigned long)a << b);
                if ((v >> b) == a) {
                    return PyLong_FromLong(v);
                }
            }
            break;
        }
    }
    PyNumberMethods *nb = PyLong_Type.tp_as_number;
    switch (op) {
    case NB_ADD: return nb->nb_add(left, right);
    case NB_SUBTRACT: return nb->nb_subtract(left, right);
    case NB_MULTIPLY: return nb->nb_multiply(left, right);
    case NB_AND: return nb->nb_and(left, right);
    case NB_OR: return nb->nb_or(left, right);
    case NB_XOR: return nb->nb_xor(left, right);
    case NB_RSHIFT: return nb->nb_rshift(left, right);
    default: return nb->nb_lshift(left, right);
    }
}

/* // and % of ints of at most two digits in C, rounding as Python does (towards minus
 * infinity; the remainder takes the divisor's sign): 1 and the result, or 0 for a divisor
 * of 0 or a wider operand, which the generic path takes. */
static int __attribute__((noinline))
long_floordiv_mod_wide(PyObject *left, PyObject *right, int op, long *result)
{
    long a, b;
    if (!pa_long_two_digits(left, &a) || !pa_long_two_digits(right, &b) || b == 0) {
        return 0;
    }
    long q = a / b, r = a % b;
    if (r != 0 && (r ^ b) < 0) {
        q -= 1;
        r += b;
    }
    *result = op == NB_FLOOR_DIVIDE ? q : r;
    return 1;
}

static inline int
compare_longs(long a, long b, int op)
{
    switch (op) {
    case Py_LT: return a < b;
    case Py_LE: return a <= b;
    case Py_EQ: return a == b;
    case Py_NE: return a != b;
    case Py_GT: return a > b;
    default: return a >= b;
    }
}

static inline int
compare_doubles(double a, double b, int op)
{
    switch (op) {
    case Py_LT: return a < b;
    case Py_LE: return a <= b;
    case Py_EQ: return a == b;
    case Py_NE: return a != b;
    case Py_GT: return a > b;
    default: return a >= b;
    }
}

/* ------------------------------------------------------------------------------------ */

/* The CPython offset (in code units) of the pyadapt instruction unit at `p`, from the unit's
 * to_cpy table: the table is indexed like the code with entries half a code unit's size, so
 * an entry's address is half its instruction's plus a fixed distance (to_cpy_delta, from
 * TO_CPY_DELTA): a shift and one load, with no index arithmetic. */
#define CPY_OFFSET(p) \
    (*(const uint16_t *)(((uintptr_t)(p) >> 1) + (uintptr_t)to_cpy_delta))
/* The code is 4-byte aligned (malloc), so halving its address loses nothing. */
#define TO_CPY_DELTA(u) \
    ((intptr_t)((uintptr_t)(u)->to_cpy - ((uintptr_t)(u)->code >> 1)))
/* The frame's last instruction := the instruction being executed (this_instr). */
#define SYNC_LASTI() PA_FRAME_SET_LAST_INSTR(frame, cpy_base + CPY_OFFSET(this_instr))

/* Each handler is both a case and a label, so adaptive forms can jump to the generic
 * handler of their family in either dispatch mode.
 *
 * TARGET handlers start by writing the frame's last instruction.  PURE_TARGET handlers do not: they run
 * no code but their own until they dispatch -- no Python code, no allocation (tracemalloc
 * reads the line of every allocation), no call that could release the GIL or raise -- so
 * nothing can see a stale one while they run.  Their ways out of that rule write it
 * first: DECREF_SYNC when a decref may free an object (its __del__ or a weakref callback
 * may run), SYNC_LASTI before a slow path that calls out, and the shared labels they jump to
 * (handle_eval_breaker, unbound_local_error; a failed guard runs the family's generic
 * TARGET handler).  The pure handlers are the most frequent ones (loads of locals,
 * constants and globals, specialized attribute loads, compares and jumps), and skipping the
 * write saves about 5 machine instructions each (docs/architecture.md has the counts). */
#define TARGET(op) case PA_##op: TARGET_##op: SYNC_LASTI();
#define PURE_TARGET(op) case PA_##op: TARGET_##op:
/* Py_DECREF in a PURE_TARGET handler, of an object whose deallocation may run Python code. */
#if PA_DEALLOC_INLINE
/* The last reference: the type's deallocator called here, as CPython's loop (linked into
 * libpython) inlines _Py_Dealloc, with its reference tracer test (PA_DEALLOC_INLINE). */
#  define DECREF_SYNC(o) \
    do { \
        PyObject *d_ = (PyObject *)(o); \
        if (Py_REFCNT(d_) == 1) { \
            SYNC_LASTI(); \
            _Py_DECREF_SPECIALIZED(d_, Py_TYPE(d_)->tp_dealloc); \
        } \
        else { \
            Py_DECREF(d_); \
        } \
    } while (0)
#else
#  define DECREF_SYNC(o) \
    do { \
        PyObject *d_ = (PyObject *)(o); \
        if (Py_REFCNT(d_) == 1) { \
            SYNC_LASTI(); \
        } \
        Py_DECREF(d_); \
    } while (0)
#endif
#define XDECREF_SYNC(o) \
    do { \
        PyObject *xd_ = (PyObject *)(o); \
        if (xd_ != NULL) { \
            DECREF_SYNC(xd_); \
        } \
    } while (0)
#if PA_USE_COMPUTED_GOTOS
#  define DISPATCH_GOTO() goto *dispatch_table[opcode]
#else
#  define DISPATCH_GOTO() goto dispatch_switch
#endif

#ifdef PA_PAIR_STATS
uint64_t pa_pair_counts[256][256];
const int pa_pair_stats_enabled = 1;
/* count (previous, this) when this instruction directly follows the previous one */
#  define COUNT_PAIR() \
    do { \
        if (this_instr == pair_prev_end && pair_prev >= 0) { \
            pa_pair_counts[pair_prev][pa_family_of[PA_OPCODE(*this_instr)]]++; \
        } \
        pair_prev = pa_family_of[PA_OPCODE(*this_instr)]; \
        pair_prev_end = this_instr + 1 + pa_opinfo_table[PA_OPCODE(*this_instr)].ncache; \
    } while (0)
#else
uint64_t pa_pair_counts[256][256];
const int pa_pair_stats_enabled = 0;
#  define COUNT_PAIR() ((void)0)
#endif

/* The instruction count of stats(): only in a build that asks for it (see pa_cdef.h).
 * The count lives in a local and reaches pa_stats when the loop returns. */
#ifdef PA_COUNT_INSTRUCTIONS
const int pa_counts_instructions = 1;
#  define COUNT_INSTRUCTION() (ninstr++)
#else
const int pa_counts_instructions = 0;
#  define COUNT_INSTRUCTION() ((void)0)
#endif

#define DISPATCH() \
    do { \
        this_instr = next_instr; \
        COUNT_PAIR(); \
        uint32_t word_ = *next_instr++; \
        opcode = PA_OPCODE(word_); \
        oparg = (int)PA_OPARG(word_); \
        COUNT_INSTRUCTION(); \
        DISPATCH_GOTO(); \
    } while (0)

#define SKIP_CACHE(T) (next_instr += PA_CACHE_UNITS(T))
/* The end of CONTAINS_OP and its forms: the operands (popped) released, res < 0 an error,
 * else the bool, negated for `not in` (oparg 1). */
#define CONTAINS_RESULT(RES, LEFT, RIGHT) \
    do { \
        Py_DECREF(LEFT); \
        Py_DECREF(RIGHT); \
        if ((RES) < 0) { \
            goto error; \
        } \
        PUSH(Py_NewRef(((RES) ^ oparg) ? Py_True : Py_False)); \
        SKIP_CACHE(pa_cache_contains_op); \
        DISPATCH(); \
    } while (0)
/* Execute the current instruction again, under the opcode its word holds now. */
#define REDISPATCH() \
    do { opcode = PA_OPCODE(*this_instr); next_instr = this_instr + 1; DISPATCH_GOTO(); } while (0)
/* A specialized form's guard: on failure, run the family's generic handler instead. */
#define DEOPT_IF(cond) do { if (cond) { goto miss; } } while (0)
/* A guard whose failure CPython's own form does not hold against the site (3.13's shim that
 * does not fit the data stack's chunk: its specializer would write the form again at once):
 * the generic handler runs for this execution, and no miss is counted. */
#define GENERIC_THIS_TIME_IF(cond) do { if (cond) { goto generic_this_time; } } while (0)
/* per site: the hits field of the cache head (pa_word.h); per opcode: summed on demand */
#define STAT_HIT() (PA_SITE_HITS(this_instr)++)
/* The adaptive form of a family: specialize when the counter runs out, else count down
 * and run the generic handler. */
#define ADAPTIVE(FAMILY, SPECIALIZE) \
    do { \
        uint32_t *counter_ = next_instr;   /* the cache head's counter */ \
        if (PA_COUNTER_VALUE(*counter_) == 0) { \
            SPECIALIZE; \
            REDISPATCH(); \
        } \
        (*counter_)--; \
        pa_op_stats[PA_OPCODE(*this_instr)].deferred++; \
        goto TARGET_##FAMILY; \
    } while (0)
#define JUMPTO(target) (next_instr = code_base + (target))
#define EVAL_BREAKER() PA_EVAL_BREAKER(tstate)
#define CHECK_EVAL_BREAKER() \
    do { if (EVAL_BREAKER()) { goto handle_eval_breaker; } } while (0)
/* A jump to `target`; backward jumps give signals and other threads their chance. */
#define JUMP_CHECKED(target) \
    do { \
        int target_ = (target); \
        JUMPTO(target_); \
        if (code_base + target_ <= this_instr && EVAL_BREAKER()) { \
            goto handle_eval_breaker_backward; \
        } \
    } while (0)

/* The operands of a CALL: stack is NULL, callable, args... or method, self, args...
 * (CPython's PRECALL work, unpacking a bound method, happens here). */
#define CALL_PROLOGUE() \
    PyObject **base = stack_pointer - oparg - 2; \
    if (base[0] == NULL && Py_TYPE(base[1]) == &PyMethod_Type) { \
        PyObject *bound_ = base[1]; \
        base[0] = Py_NewRef(((PyMethodObject *)bound_)->im_func); \
        base[1] = Py_NewRef(((PyMethodObject *)bound_)->im_self); \
        Py_DECREF(bound_); \
    } \
    int is_meth = base[0] != NULL; \
    PyObject *function = is_meth ? base[0] : base[1]; \
    PyObject **args = base + 2 - is_meth; \
    int total_args = oparg + is_meth

/* Whether a Python-to-Python call must go through C rather than an inline frame:
 * tracing is on (CPython's loop emits the events), or the interpreter's eval-frame
 * function is not pyadapt's own.  Another PEP 523 hook (a debugger's frame evaluator, a
 * JIT) installed while pyadapt runs must see every frame, and it does when the call goes
 * through _PyEval_EvalFrame as it would natively (see pa_foreign_eval_frame).  The test
 * of the slot is one load and compare on the hot path. */
#define INLINE_REFUSED() \
    (PA_LOOP_TRACING(tstate, cframe) \
     || (interp->eval_frame != pa_eval_frame && pa_foreign_eval_frame(interp, 1)))
/* The same, for a specialized CALL form whose miss runs the generic CALL (which counts
 * the fallback). */
#define INLINE_REFUSED_UNCOUNTED() \
    (PA_LOOP_TRACING(tstate, cframe) \
     || (interp->eval_frame != pa_eval_frame && pa_foreign_eval_frame(interp, 0)))

/* Continue in `new_frame` (already holding its arguments); the caller shows f_lasti at
 * the CPython offset of the current instruction plus `last_cache` (natively an inlined
 * call shows the last cache entry; a call CPython 3.11 makes in C shows the instruction
 * itself, 0) and resumes after it (see return_to_caller). */
#define ENTER_INLINE_FRAME(new_frame, last_cache) \
    do { \
        _PyFrame_SetStackPointer(frame, stack_pointer); \
        PA_FRAME_SUSPEND_IN(frame, cpy_base + CPY_OFFSET(this_instr), (last_cache)); \
        (new_frame)->previous = frame; \
        frame = (new_frame); \
        PA_LOOP_SET_CURRENT(cframe, frame); \
        pa_stats.inlined_calls++; \
        goto start_new_frame; \
    } while (0)
#define PA_CACHED_PTR(cache) ((PyObject *)pa_read_ptr((cache)->descr_lo, (cache)->descr_hi))
/* LOAD_METHOD_WITH_VALUES_MEGA's last entry of the shared attribute table (not an object) */
#define PA_MEMO_ENTRY(cache) ((pa_attr_entry *)pa_read_ptr((cache)->descr_lo, (cache)->descr_hi))
#define PA_SET_MEMO_ENTRY(cache, e) pa_write_ptr(&(cache)->descr_lo, &(cache)->descr_hi, (e))

/* Tracing is on and CPython's loop can take this frame over: the entry frame, or one on the
 * thread's frame stack (a generator run inline goes back to its caller first). */
#define TRACING_CAN_HAND_OVER() \
    (PA_LOOP_TRACING(tstate, cframe) \
     && (PA_LOOP_IS_ENTRY(cframe, frame) || frame->owner == FRAME_OWNED_BY_THREAD) \
     && PA_STACK_CAN_CONVERT(unit, _PyFrame_Stackbase(frame), stack_pointer, next_instr, \
                             &handover_saved))
/* Tracing or profiling switched on by code this frame called (sys.settrace, pdb,
 * cProfile): CPython's loop finishes the frame, with the events (see `handover`).  The
 * frame must be resumable by CPython: its last instruction at the last unit of the instruction that
 * just completed. */
#define HANDOVER_IF_TRACING(last_unit) \
    do { \
        if (TRACING_CAN_HAND_OVER()) { \
            PA_FRAME_HANDOVER_AT(frame, cpy_base + CPY_OFFSET(this_instr) + (last_unit), \
                                 cpy_base + CPY_OFFSET(next_instr)); \
            goto handover; \
        } \
    } while (0)

#define TOP()        (stack_pointer[-1])
#define SECOND()     (stack_pointer[-2])
#define THIRD()      (stack_pointer[-3])
#define PEEK(n)      (stack_pointer[-(n)])
#define SET_TOP(v)   (stack_pointer[-1] = (v))
#define SET_SECOND(v) (stack_pointer[-2] = (v))
#define PUSH(v)      (*stack_pointer++ = (v))
#define POP()        (*--stack_pointer)
#define STACK_SHRINK(n) (stack_pointer -= (n))
#define STACK_GROW(n)   (stack_pointer += (n))
#define STACK_LEVEL() ((int)(stack_pointer - _PyFrame_Stackbase(frame)))

#define GETLOCAL(i)  (frame->localsplus[i])
#define SETLOCAL(i, value) \
    do { PyObject *tmp_ = GETLOCAL(i); GETLOCAL(i) = (value); XDECREF_SYNC(tmp_); } while (0)
#define GETITEM(v, i) PyTuple_GET_ITEM((v), (i))
#define GLOBALS()  (frame->f_globals)
#define BUILTINS() (frame->f_builtins)
#define LOCALS()   (frame->f_locals)

/* Load the per-frame registers from `frame`, but next_instr. */
#define LOAD_UNIT_STATE() LOAD_UNIT_STATE_OF(pa_unit_for_code(PA_FRAME_CODE(frame)))
/* The same, given the unit of frame's code. */
#define LOAD_UNIT_STATE_OF(frame_unit) \
    do { \
        PyCodeObject *co_ = PA_FRAME_CODE(frame); \
        unit = (frame_unit); \
        PA_ASSERT(unit != NULL && unit->reject_reason == 0 && unit == pa_unit_for_code(co_)); \
        code_base = unit->code; \
        to_cpy_delta = TO_CPY_DELTA(unit); \
        cpy_base = _PyCode_CODE(co_); \
        names = co_->co_names; \
        consts = co_->co_consts; \
        stack_pointer = _PyFrame_GetStackPointer(frame); \
        frame->stacktop = -1; \
    } while (0)
/* Where a frame suspended in a call (PA_FRAME_SUSPEND_IN) goes on once the call is done:
 * the instruction after its last one, or past it where the seam says the frame shows the
 * call's instruction itself (3.13's return_offset). */
static inline uint32_t *
caller_next_instr(const pa_unit *u, _PyInterpreterFrame *f)
{
    uint32_t *next = u->code + u->from_cpy[PA_CALLER_NEXT_OFFSET(f)];
    if (PA_CALLER_PAST_INSTR(f)) {
        next += 1 + pa_opinfo_table[PA_OPCODE(*next)].ncache;
    }
    return next;
}
/* Load the per-frame registers from `frame`, entered or resumed: it goes on where the
 * frame says (after its last instruction on 3.11). */
#define LOAD_FRAME_STATE() \
    do { \
        LOAD_UNIT_STATE(); \
        next_instr = code_base + unit->from_cpy[PA_FRAME_NEXT_OFFSET(frame)]; \
    } while (0)
/* The same for a frame this loop suspended in a call (PA_FRAME_SUSPEND_IN), the call done. */
#define LOAD_CALLER_STATE() \
    do { \
        LOAD_UNIT_STATE(); \
        next_instr = caller_next_instr(unit, frame); \
    } while (0)
/* The return cache (pa_internal.h): `frame` is suspended in a call at `lasti_`
 * (PA_CALLER_KEY), and the entry at `ce_` holds it: the registers LOAD_CALLER_STATE would
 * load, for a caller that goes on after its instruction (the common case: see
 * return_to_caller; one that finishes its instruction has another key). */
#define CALLER_CACHED(ce_, lasti_) ((ce_)->lasti == (lasti_))
#define LOAD_CACHED_CALLER_STATE(ce_) \
    do { \
        LOAD_CACHED_STATE(ce_); \
        PA_ASSERT(next_instr == caller_next_instr(unit, frame)); \
    } while (0)
/* The registers and next_instr from an entry of the return or the resume cache. */
#define LOAD_CACHED_STATE(ce_) \
    do { \
        unit = (ce_)->unit; \
        PA_ASSERT(unit == pa_unit_for_code(PA_FRAME_CODE(frame))); \
        code_base = (ce_)->code_base; \
        to_cpy_delta = (ce_)->to_cpy_delta; \
        cpy_base = _PyCode_CODE(PA_FRAME_CODE(frame)); \
        names = (ce_)->names; \
        consts = (ce_)->consts; \
        stack_pointer = _PyFrame_GetStackPointer(frame); \
        frame->stacktop = -1; \
        next_instr = (ce_)->next_instr; \
    } while (0)
/* After LOAD_CALLER_STATE for a caller that goes on after its instruction, or after the
 * registers of a resumed generator are loaded: remember them (the unit is marked, so that
 * its death empties the caches). */
#define CACHE_CALLER_STATE(ce_, lasti_) \
    do { \
        *(ce_) = (pa_caller_entry){(lasti_), unit, next_instr, code_base, to_cpy_delta, \
                                   names, consts}; \
        unit->flags |= PA_UNIT_CACHED; \
    } while (0)
/* A frame's first entry costs a level of the recursion limit, as natively. */
#define ENTER_RECURSION_LEVEL() \
    do { \
        if (pa_enter_py_level(tstate)) { \
            goto exit_unwind; \
        } \
    } while (0)

/* Leave the loop with `result`, unlinking it from the thread; the entry frame is as the
 * hook's caller expects it. */
#define LEAVE_LOOP(result) \
    do { \
        pa_loop_leave(tstate, &cframe); \
        pa_stats.instructions += ninstr; \
        pa_leave_loop_c_levels(tstate); \
        return (result); \
    } while (0)
/* The entry frame returned (`result`) or raised (NULL): leave the loop, and finish the frame
 * as the version's exit contract says (pa_finish_entry_frame). */
#define FINISH_ENTRY_FRAME(result) \
    do { \
        pa_loop_leave(tstate, &cframe); \
        pa_stats.instructions += ninstr; \
        pa_finish_entry_frame(tstate, frame, (result) == NULL); \
        pa_leave_loop_c_levels(tstate); \
        return (result); \
    } while (0)

/* What super(...).name gives for `descr`, the attribute found in the MRO after super()'s
 * class, as super's own lookup makes it: bound by its __get__ to obj (NULL when obj is the
 * searched class itself) and `type`, or itself.  A new reference, NULL on error.  __get__
 * may run Python code that deletes the attribute from its class: it is held meanwhile. */
static inline PyObject *
pa_super_bind(PyObject *descr, PyObject *obj, PyTypeObject *type)
{
    descrgetfunc get = Py_TYPE(descr)->tp_descr_get;
    if (get == NULL) {
        return Py_NewRef(descr);
    }
    Py_INCREF(descr);
    PyObject *res = get(descr, obj, (PyObject *)type);
    Py_DECREF(descr);
    return res;
}

PyObject *
pa_execute(PyThreadState *tstate, _PyInterpreterFrame *frame, int throwflag,
           pa_unit *entry_unit)
{
#if PA_USE_COMPUTED_GOTOS
    /* every slot defaults to unknown_opcode, then each instruction overrides its own */
#  pragma GCC diagnostic push
#  pragma GCC diagnostic ignored "-Woverride-init"
    static void *dispatch_table[256] = {
        [0 ... 255] = &&unknown_opcode,
#define PA_OP0(NAME, ...) [PA_##NAME] = &&TARGET_##NAME,
#define PA_OPC(NAME, ...) [PA_##NAME] = &&TARGET_##NAME,
#define PA_SPEC(NAME, ...) [PA_##NAME] = &&TARGET_##NAME,
        PA_OPCODE_LIST
#undef PA_OP0
#undef PA_OPC
#undef PA_SPEC
    };
#  pragma GCC diagnostic pop
#endif
    /* opcode is read by the dispatch only: a handler that needs its own opcode reads it from
     * *this_instr, so that the opcode is dead once dispatched (no register kept for it) */
    int opcode, oparg;
    uint64_t ninstr = 0;
    PyObject *kwnames = NULL;     /* set by KW_NAMES for the next CALL (borrowed) */
    pa_unit *unit;
    pa_caller_entry *resume_entry;  /* a generator's, from its resume to its frame's start */
    uint32_t *code_base, *next_instr, *this_instr = NULL;
    intptr_t to_cpy_delta;        /* TO_CPY_DELTA of the unit: see CPY_OFFSET */
    _Py_CODEUNIT *cpy_base;
    PyObject *names, *consts;
    PyObject **stack_pointer;
    PyObject *retval;
    int traced_unwind = 0;       /* the exception being unwound was reported to a tracer */
    uint32_t handover_saved = 0; /* where a hand-over's saved locals are (PA_STACK_CAN_CONVERT) */
    PyInterpreterState *const interp = tstate->interp;
#ifdef PA_PAIR_STATS
    int pair_prev = -1;
    uint32_t *pair_prev_end = NULL;
#endif

    /* the link into the thread, and the frame the hook gave this call (PA_LOOP_IS_ENTRY):
     * returning from it leaves the loop */
    pa_loop_link cframe;
    pa_loop_enter(tstate, &cframe, frame);
    if (pa_enter_loop_c_levels(tstate)) {
        /* as CPython's loop: the frame's Python level is counted too, and exit_unwind gives
         * both back */
        PA_PY_RECURSION_REMAINING(tstate)--;
        goto exit_unwind;
    }

    if (throwflag) {
        /* gen.throw() / gen.close(): the exception is raised at the suspended yield */
        if (pa_enter_py_level(tstate)) {
            goto exit_unwind;
        }
        entry_unit->entries++;
        pa_stats.frames++;
        LOAD_UNIT_STATE_OF(entry_unit);
        PA_STACK_FROM_CPYTHON(unit, _PyFrame_Stackbase(frame), stack_pointer,
                              PA_SAVED_AT_RESUME(unit, code_base
                                                 + unit->from_cpy[PA_FRAME_NEXT_OFFSET(frame)]));
        this_instr = code_base + unit->from_cpy[PA_FRAME_THROWN_OFFSET(frame)];
        goto error;
    }
    /* the entry frame, whose unit the hook has looked up already */
    ENTER_RECURSION_LEVEL();
    LOAD_UNIT_STATE_OF(entry_unit);
    next_instr = code_base + unit->from_cpy[PA_FRAME_NEXT_OFFSET(frame)];
    PA_STACK_FROM_CPYTHON(unit, _PyFrame_Stackbase(frame), stack_pointer,
                          PA_SAVED_AT_RESUME(unit, next_instr));
    goto frame_started;

start_resumed_frame:
    /* a generator's frame FOR_ITER_GEN / SEND_GEN resume here: `unit` is its unit already,
     * which the instruction's guard looked up (no second lookup); `resume_entry` is the
     * resume cache's entry of its resume point, which did not hold it */
    ENTER_RECURSION_LEVEL();
    LOAD_UNIT_STATE_OF(unit);
    next_instr = code_base + unit->from_cpy[PA_FRAME_NEXT_OFFSET(frame)];
    PA_STACK_FROM_CPYTHON(unit, _PyFrame_Stackbase(frame), stack_pointer,
                          PA_SAVED_AT_RESUME(unit, next_instr));
    CACHE_CALLER_STATE(resume_entry, (const void *)PA_SUSPENDED_RESUME_INSTR(frame));
    goto frame_started;

start_cached_resumed_frame:
    /* the same, the entry holding it */
    ENTER_RECURSION_LEVEL();
    LOAD_CACHED_STATE(resume_entry);
    PA_ASSERT(unit == pa_unit_for_code(PA_FRAME_CODE(frame))
              && next_instr == code_base + unit->from_cpy[PA_FRAME_NEXT_OFFSET(frame)]);
    PA_STACK_FROM_CPYTHON(unit, _PyFrame_Stackbase(frame), stack_pointer,
                          PA_SAVED_AT_RESUME(unit, next_instr));
    goto frame_started;

start_new_frame:
    /* a frame this loop just pushed (ENTER_INLINE_FRAME): its first instruction is the
     * unit's first, so the from_cpy lookup of start_resumed_frame is not needed */
    ENTER_RECURSION_LEVEL();
    LOAD_UNIT_STATE();
    PA_ASSERT(PA_FRAME_NEXT_OFFSET(frame) == 0 && unit->from_cpy[0] == 0);
    next_instr = code_base;

frame_started:
    unit->entries++;
    pa_stats.frames++;
    DISPATCH();

handle_eval_breaker:
    SYNC_LASTI();
    if (pa_handle_pending(tstate) != 0) {
        goto error;
    }
    DISPATCH();

handle_eval_breaker_backward:
    /* A backward jump's check, made after the jump: CPython's loop finds the handler of an
     * error raised there at the unit before the jump's target (its next instruction less
     * one), while the traceback and f_lasti show the jump.  The two differ where the jump is
     * outside the try block that holds its target (3.12 leaves a loop's closing
     * JUMP_BACKWARD out of the exception table): the error is caught all the same.  3.13's
     * loop checks before it jumps, and looks the handler up at the jump itself: there the
     * error leaves such a try block (PA_BACKWARD_BREAKER_ERROR_AT_JUMP). */
    SYNC_LASTI();
    if (pa_handle_pending(tstate) != 0) {
        if (!PA_BACKWARD_BREAKER_ERROR_AT_JUMP) {
            this_instr = next_instr - 1;   /* `error` reads the frame's lasti, not this_instr */
        }
        goto error;
    }
    DISPATCH();

#if !PA_USE_COMPUTED_GOTOS
dispatch_switch:
#endif
    switch (opcode) {

    PURE_TARGET(NOP) {
        DISPATCH();
    }

    PURE_TARGET(RESUME) {
        if (PA_RESUME_WHERE(oparg) < 2) {
            CHECK_EVAL_BREAKER();
        }
        DISPATCH();
    }

    PURE_TARGET(LOAD_CLOSURE)
    PURE_TARGET(LOAD_FAST) {
        PyObject *value = GETLOCAL(oparg);
        if (value == NULL) {
            goto unbound_local_error;
        }
        Py_INCREF(value);
        PUSH(value);
        DISPATCH();
    }

    PURE_TARGET(LOAD_CONST) {
        PyObject *value = GETITEM(consts, oparg);
        Py_INCREF(value);
        PUSH(value);
        DISPATCH();
    }

    PURE_TARGET(STORE_FAST) {
        PyObject *value = POP();
        SETLOCAL(oparg, value);
        DISPATCH();
    }

    TARGET(DELETE_FAST) {
        PyObject *v = GETLOCAL(oparg);
        if (v != NULL) {
            SETLOCAL(oparg, NULL);
            DISPATCH();
        }
        goto unbound_local_error;
    }

    PURE_TARGET(POP_TOP) {
        PyObject *value = POP();
        DECREF_SYNC(value);
        DISPATCH();
    }

    PURE_TARGET(PUSH_NULL) {
        PUSH(NULL);
        DISPATCH();
    }

    TARGET(UNARY_POSITIVE) {
        PyObject *value = TOP();
        PyObject *res = PyNumber_Positive(value);
        Py_DECREF(value);
        SET_TOP(res);
        if (res == NULL) {
            goto error;
        }
        DISPATCH();
    }

    TARGET(UNARY_NEGATIVE) {
        PyObject *value = TOP();
        PyObject *res = PyNumber_Negative(value);
        Py_DECREF(value);
        SET_TOP(res);
        if (res == NULL) {
            goto error;
        }
        DISPATCH();
    }

    TARGET(UNARY_NOT) {
        PyObject *value = TOP();
        int err = PyObject_IsTrue(value);
        Py_DECREF(value);
        if (err < 0) {
            STACK_SHRINK(1);
            goto error;
        }
        SET_TOP(Py_NewRef(err ? Py_False : Py_True));
        DISPATCH();
    }

    TARGET(UNARY_INVERT) {
        PyObject *value = TOP();
        PyObject *res = PyNumber_Invert(value);
        Py_DECREF(value);
        SET_TOP(res);
        if (res == NULL) {
            goto error;
        }
        DISPATCH();
    }

    TARGET(BINARY_OP) {
        PyObject *rhs = POP();
        PyObject *lhs = TOP();
        PyObject *res;
        if ((oparg == NB_ADD || oparg == NB_INPLACE_ADD) && PyUnicode_CheckExact(lhs)
                && PyUnicode_CheckExact(rhs)) {
            /* `s = s + t` / `s += t` stored back into the same local: extend s in place
             * when nothing else holds it (CPython <= 3.10's generic loop did this; 3.11
             * keeps it for the quickened form only, which would make generic mode
             * quadratic). */
            uint32_t store = next_instr[PA_CACHE_UNITS(pa_cache_binary_op)];
            int store_op = PA_OPCODE(store);
            if ((store_op == PA_STORE_FAST || store_op == PA_STORE_FAST__LOAD_FAST
                    || store_op == PA_STORE_FAST__STORE_FAST)
                    && GETLOCAL(PA_OPARG(store)) == lhs) {
                PyObject **target_local = &GETLOCAL(PA_OPARG(store));
                STACK_SHRINK(1);
                Py_DECREF(lhs);
                PyUnicode_Append(target_local, rhs);
                Py_DECREF(rhs);
                if (*target_local == NULL) {
                    goto error;
                }
                next_instr += PA_CACHE_UNITS(pa_cache_binary_op) + 1;
                DISPATCH();
            }
        }
        if (oparg == NB_POWER) {
            res = PyNumber_Power(lhs, rhs, Py_None);
        }
        else if (oparg == NB_INPLACE_POWER) {
            res = PyNumber_InPlacePower(lhs, rhs, Py_None);
        }
        else {
            res = binary_ops[oparg](lhs, rhs);
        }
        Py_DECREF(lhs);
        Py_DECREF(rhs);
        SET_TOP(res);
        if (res == NULL) {
            goto error;
        }
        SKIP_CACHE(pa_cache_binary_op);
        DISPATCH();
    }

    TARGET(BINARY_SUBSCR) {
        PyObject *sub = POP();
        PyObject *container = TOP();
        PyObject *res = PyObject_GetItem(container, sub);
        Py_DECREF(container);
        Py_DECREF(sub);
        SET_TOP(res);
        if (res == NULL) {
            goto error;
        }
        SKIP_CACHE(pa_cache_binary_subscr);
        DISPATCH();
    }

    TARGET(STORE_SUBSCR) {
        PyObject *sub = TOP();
        PyObject *container = SECOND();
        PyObject *v = THIRD();
        STACK_SHRINK(3);
        int err = PyObject_SetItem(container, sub, v);
        Py_DECREF(v);
        Py_DECREF(container);
        Py_DECREF(sub);
        if (err != 0) {
            goto error;
        }
        SKIP_CACHE(pa_cache_store_subscr);
        DISPATCH();
    }

    TARGET(DELETE_SUBSCR) {
        PyObject *sub = TOP();
        PyObject *container = SECOND();
        STACK_SHRINK(2);
        int err = PyObject_DelItem(container, sub);
        Py_DECREF(container);
        Py_DECREF(sub);
        if (err != 0) {
            goto error;
        }
        DISPATCH();
    }

    TARGET(GET_LEN) {
        Py_ssize_t len_i = PyObject_Length(TOP());
        if (len_i < 0) {
            goto error;
        }
        PyObject *len_o = PyLong_FromSsize_t(len_i);
        if (len_o == NULL) {
            goto error;
        }
        PUSH(len_o);
        DISPATCH();
    }

    TARGET(MATCH_MAPPING) {
        int match = Py_TYPE(TOP())->tp_flags & Py_TPFLAGS_MAPPING;
        PUSH(Py_NewRef(match ? Py_True : Py_False));
        DISPATCH();
    }

    TARGET(MATCH_SEQUENCE) {
        int match = Py_TYPE(TOP())->tp_flags & Py_TPFLAGS_SEQUENCE;
        PUSH(Py_NewRef(match ? Py_True : Py_False));
        DISPATCH();
    }

    TARGET(MATCH_KEYS) {
        PyObject *values_or_none = pa_match_keys(SECOND(), TOP());
        if (values_or_none == NULL) {
            goto error;
        }
        PUSH(values_or_none);
        DISPATCH();
    }

    TARGET(MATCH_CLASS) {
        PyObject *names_ = POP();
        PyObject *type = POP();
        PyObject *subject = TOP();
        PyObject *attrs = pa_match_class(subject, type, oparg, names_);
        Py_DECREF(names_);
        Py_DECREF(type);
        if (attrs == NULL) {
            goto error;
        }
        SET_TOP(attrs);    /* a tuple on success, None on failure */
        Py_DECREF(subject);
        DISPATCH();
    }

    TARGET(PUSH_EXC_INFO) {
        PyObject *value = TOP();
        _PyErr_StackItem *exc_info = tstate->exc_info;
        if (exc_info->exc_value != NULL) {
            SET_TOP(exc_info->exc_value);
        }
        else {
            SET_TOP(Py_NewRef(Py_None));
        }
        PUSH(Py_NewRef(value));
        exc_info->exc_value = value;
        DISPATCH();
    }

    TARGET(POP_EXCEPT) {
        _PyErr_StackItem *exc_info = tstate->exc_info;
        PyObject *value = exc_info->exc_value;
        PyObject *saved = POP();
        exc_info->exc_value = PA_EXC_STATE_VALUE(saved);
        Py_XDECREF(value);
        DISPATCH();
    }

    TARGET(CHECK_EXC_MATCH) {
        PyObject *right = POP();
        PyObject *left = TOP();
        if (pa_check_except_type_valid(right) < 0) {
            Py_DECREF(right);
            goto error;
        }
        int res = PyErr_GivenExceptionMatches(left, right);
        Py_DECREF(right);
        PUSH(Py_NewRef(res ? Py_True : Py_False));
        DISPATCH();
    }

    TARGET(CHECK_EG_MATCH) {
        PyObject *match_type = POP();
        if (pa_check_except_star_type_valid(match_type) < 0) {
            Py_DECREF(match_type);
            goto error;
        }
        PyObject *exc_value = TOP();
        PyObject *match, *rest;
        int err = pa_exception_group_match(exc_value, match_type, &match, &rest);
        Py_DECREF(match_type);
        if (err < 0) {
            goto error;
        }
        if (Py_IsNone(match)) {
            PUSH(match);
            Py_DECREF(rest);
        }
        else {
            SET_TOP(rest);
            PUSH(match);
            PyErr_SetExcInfo(NULL, Py_NewRef(match), NULL);
            Py_DECREF(exc_value);
        }
        DISPATCH();
    }

    TARGET(PREP_RERAISE_STAR) {
        PyObject *excs = POP();
        PyObject *orig = POP();
        PyObject *val = pa_prep_reraise_star(orig, excs);
        Py_DECREF(excs);
        Py_DECREF(orig);
        if (val == NULL) {
            goto error;
        }
        PUSH(val);
        DISPATCH();
    }

    TARGET(WITH_EXCEPT_START) {
        /* stack: __exit__, lasti, previous exception, exception */
        PyObject *val = TOP();
        PyObject *exc = PyExceptionInstance_Class(val);
        PyObject *tb = PyException_GetTraceback(val);
        Py_XDECREF(tb);
        PyObject *exit_func = PEEK(4);
        PyObject *stack[4] = {NULL, exc, val, tb ? tb : Py_None};
        PyObject *res = PyObject_Vectorcall(exit_func, stack + 1,
                                            3 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
        if (res == NULL) {
            goto error;
        }
        PUSH(res);
        DISPATCH();
    }

    TARGET(GET_AITER) {
        PyObject *obj = TOP();
        PyTypeObject *type = Py_TYPE(obj);
        unaryfunc getter = type->tp_as_async != NULL ? type->tp_as_async->am_aiter : NULL;
        if (getter == NULL) {
            SET_TOP(NULL);
            _PyErr_Format(tstate, PyExc_TypeError,
                          "'async for' requires an object with "
                          "__aiter__ method, got %.100s", type->tp_name);
            Py_DECREF(obj);
            goto error;
        }
        PyObject *iter = getter(obj);
        Py_DECREF(obj);
        if (iter == NULL) {
            SET_TOP(NULL);
            goto error;
        }
        if (Py_TYPE(iter)->tp_as_async == NULL
                || Py_TYPE(iter)->tp_as_async->am_anext == NULL) {
            SET_TOP(NULL);
            _PyErr_Format(tstate, PyExc_TypeError,
                          "'async for' received an object from __aiter__ "
                          "that does not implement __anext__: %.100s",
                          Py_TYPE(iter)->tp_name);
            Py_DECREF(iter);
            goto error;
        }
        SET_TOP(iter);
        DISPATCH();
    }

    TARGET(GET_ANEXT) {
        PyObject *aiter = TOP();
        PyTypeObject *type = Py_TYPE(aiter);
        PyObject *awaitable;
        if (PyAsyncGen_CheckExact(aiter)) {
            awaitable = type->tp_as_async->am_anext(aiter);
            if (awaitable == NULL) {
                goto error;
            }
        }
        else {
            unaryfunc getter = type->tp_as_async != NULL ? type->tp_as_async->am_anext : NULL;
            if (getter == NULL) {
                _PyErr_Format(tstate, PyExc_TypeError,
                              "'async for' requires an iterator with "
                              "__anext__ method, got %.100s", type->tp_name);
                goto error;
            }
            PyObject *next_iter = getter(aiter);
            if (next_iter == NULL) {
                goto error;
            }
            awaitable = get_awaitable_iter(next_iter);
            if (awaitable == NULL) {
                _PyErr_FormatFromCause(PyExc_TypeError,
                                       "'async for' received an invalid object "
                                       "from __anext__: %.100s",
                                       Py_TYPE(next_iter)->tp_name);
                Py_DECREF(next_iter);
                goto error;
            }
            Py_DECREF(next_iter);
        }
        PUSH(awaitable);
        DISPATCH();
    }

    TARGET(GET_AWAITABLE) {
        PyObject *iterable = TOP();
        PyObject *iter = get_awaitable_iter(iterable);
        if (iter == NULL) {
            format_awaitable_error(tstate, Py_TYPE(iterable), oparg);
        }
        Py_DECREF(iterable);
        if (iter != NULL && PyCoro_CheckExact(iter)) {
            PyObject *yf = pa_gen_yielding_from((PyGenObject *)iter);
            if (yf != NULL) {
                Py_DECREF(yf);
                Py_CLEAR(iter);
                _PyErr_SetString(tstate, PyExc_RuntimeError,
                                 "coroutine is being awaited already");
            }
        }
        SET_TOP(iter);
        if (iter == NULL) {
            goto error;
        }
        DISPATCH();
    }

    TARGET(BEFORE_ASYNC_WITH) {
        PyObject *mgr = TOP();
        PyObject *enter = _PyObject_LookupSpecial(mgr, &_Py_ID(__aenter__));
        if (enter == NULL) {
            if (!_PyErr_Occurred(tstate)) {
                _PyErr_Format(tstate, PyExc_TypeError,
                              "'%.200s' object does not support the "
                              "asynchronous context manager protocol",
                              Py_TYPE(mgr)->tp_name);
            }
            goto error;
        }
        PyObject *exit = _PyObject_LookupSpecial(mgr, &_Py_ID(__aexit__));
        if (exit == NULL) {
            if (!_PyErr_Occurred(tstate)) {
                _PyErr_Format(tstate, PyExc_TypeError,
                              "'%.200s' object does not support the "
                              "asynchronous context manager protocol "
                              "(missed __aexit__ method)", Py_TYPE(mgr)->tp_name);
            }
            Py_DECREF(enter);
            goto error;
        }
        SET_TOP(exit);
        Py_DECREF(mgr);
        PyObject *res = PyObject_CallNoArgs(enter);
        Py_DECREF(enter);
        if (res == NULL) {
            goto error;
        }
        PUSH(res);
        DISPATCH();
    }

    TARGET(BEFORE_WITH) {
        PyObject *mgr = TOP();
        PyObject *enter = _PyObject_LookupSpecial(mgr, &_Py_ID(__enter__));
        if (enter == NULL) {
            if (!_PyErr_Occurred(tstate)) {
                _PyErr_Format(tstate, PyExc_TypeError,
                              "'%.200s' object does not support the "
                              "context manager protocol", Py_TYPE(mgr)->tp_name);
            }
            goto error;
        }
        PyObject *exit = _PyObject_LookupSpecial(mgr, &_Py_ID(__exit__));
        if (exit == NULL) {
            if (!_PyErr_Occurred(tstate)) {
                _PyErr_Format(tstate, PyExc_TypeError,
                              "'%.200s' object does not support the "
                              "context manager protocol "
                              "(missed __exit__ method)", Py_TYPE(mgr)->tp_name);
            }
            Py_DECREF(enter);
            goto error;
        }
        SET_TOP(exit);
        Py_DECREF(mgr);
        PyObject *res = PyObject_CallNoArgs(enter);
        Py_DECREF(enter);
        if (res == NULL) {
            goto error;
        }
        PUSH(res);
        DISPATCH();
    }

    TARGET(END_ASYNC_FOR) {
        PyObject *val = POP();
        if (PyErr_GivenExceptionMatches(val, PyExc_StopAsyncIteration)) {
            Py_DECREF(val);
            Py_DECREF(POP());
            DISPATCH();
        }
        PyObject *exc = Py_NewRef(PyExceptionInstance_Class(val));
        _PyErr_Restore(tstate, exc, val, PyException_GetTraceback(val));
        goto reraise;
    }

    TARGET(GET_ITER) {
        PyObject *iterable = TOP();
        PyObject *iter = PyObject_GetIter(iterable);
        Py_DECREF(iterable);
        SET_TOP(iter);
        if (iter == NULL) {
            goto error;
        }
        DISPATCH();
    }

    TARGET(GET_YIELD_FROM_ITER) {
        PyObject *iterable = TOP();
        if (PyCoro_CheckExact(iterable)) {
            if (!(PA_FRAME_CODE(frame)->co_flags & (CO_COROUTINE | CO_ITERABLE_COROUTINE))) {
                Py_DECREF(iterable);
                SET_TOP(NULL);
                _PyErr_SetString(tstate, PyExc_TypeError,
                                 "cannot 'yield from' a coroutine object "
                                 "in a non-coroutine generator");
                goto error;
            }
        }
        else if (!PyGen_CheckExact(iterable)) {
            PyObject *iter = PyObject_GetIter(iterable);
            Py_DECREF(iterable);
            SET_TOP(iter);
            if (iter == NULL) {
                goto error;
            }
        }
        DISPATCH();
    }

/* FOR_ITER's generic step over `iter` (on the stack's top) with its type `tp`: push the next
 * item, or at exhaustion drop the iterator and jump past the loop (FOR_ITER and
 * FOR_ITER_ITERNEXT). */
#define FOR_ITER_GENERIC_STEP(iter, tp) \
    do { \
        PyObject *next_ = (tp)->tp_iternext(iter); \
        if (next_ != NULL) { \
            PUSH(next_); \
            SKIP_CACHE(pa_cache_for_iter); \
            DISPATCH(); \
        } \
        if (_PyErr_Occurred(tstate)) { \
            if (!_PyErr_ExceptionMatches(tstate, PyExc_StopIteration)) { \
                goto error; \
            } \
            _PyErr_Clear(tstate); \
        } \
        STACK_SHRINK(1); \
        Py_DECREF(iter); \
        JUMPTO(oparg); \
        DISPATCH(); \
    } while (0)

    TARGET(FOR_ITER) {
        PyObject *iter = TOP();
        FOR_ITER_GENERIC_STEP(iter, Py_TYPE(iter));
    }

    TARGET(PRINT_EXPR) {
        PyObject *value = POP();
        PyObject *res = print_expr(tstate, value);
        Py_DECREF(value);
        if (res == NULL) {
            goto error;
        }
        Py_DECREF(res);
        DISPATCH();
    }

    TARGET(LOAD_BUILD_CLASS) {
        PyObject *bc;
        if (PyDict_CheckExact(BUILTINS())) {
            bc = _PyDict_GetItemWithError(BUILTINS(), &_Py_ID(__build_class__));
            if (bc == NULL) {
                if (!_PyErr_Occurred(tstate)) {
                    _PyErr_SetString(tstate, PyExc_NameError, "__build_class__ not found");
                }
                goto error;
            }
            Py_INCREF(bc);
        }
        else {
            bc = PyObject_GetItem(BUILTINS(), &_Py_ID(__build_class__));
            if (bc == NULL) {
                if (_PyErr_ExceptionMatches(tstate, PyExc_KeyError)) {
                    _PyErr_SetString(tstate, PyExc_NameError, "__build_class__ not found");
                }
                goto error;
            }
        }
        PUSH(bc);
        DISPATCH();
    }

    TARGET(LOAD_ASSERTION_ERROR) {
        PUSH(Py_NewRef(PyExc_AssertionError));
        DISPATCH();
    }

    TARGET(RETURN_GENERATOR) {
        /* The frame's prologue (COPY_FREE_VARS, MAKE_CELL) has run; the generator takes the
         * frame over, resuming after this instruction (synced above). */
        _PyFrame_SetStackPointer(frame, stack_pointer);
        PyObject *gen = pa_make_generator(tstate, frame);
        if (gen == NULL) {
            goto error;
        }
        PA_FRAME_STEP_PAST(PA_GEN_FRAME((PyGenObject *)gen));
        pa_leave_py_level(tstate);
        if (!PA_LOOP_IS_ENTRY(cframe, frame)) {
            /* called inline: the frame goes, the caller gets the generator as the call's
             * result */
            _PyInterpreterFrame *done = frame;
            frame = done->previous;
            PA_LOOP_SET_CURRENT(cframe, frame);
            pa_pop_frame(tstate, done);
            retval = gen;
            goto return_to_caller;
        }
        pa_loop_leave(tstate, &cframe);
        pa_stats.instructions += ninstr;
        pa_finish_moved_entry_frame(tstate, frame);
        pa_leave_loop_c_levels(tstate);
        return gen;
    }

    TARGET(LIST_TO_TUPLE) {
        PyObject *list = POP();
        PyObject *tuple = PyList_AsTuple(list);
        Py_DECREF(list);
        if (tuple == NULL) {
            goto error;
        }
        PUSH(tuple);
        DISPATCH();
    }

    TARGET(RETURN_VALUE) {
        retval = POP();
        _PyFrame_SetStackPointer(frame, stack_pointer);
        pa_leave_py_level(tstate);
        if (!PA_LOOP_IS_ENTRY(cframe, frame)) {
            _PyInterpreterFrame *dying = frame;
            frame = dying->previous;
            PA_LOOP_SET_CURRENT(cframe, frame);
            if (dying->owner == FRAME_OWNED_BY_GENERATOR) {
                /* an inlined generator finished: its FOR_ITER ends, its SEND delivers */
                pa_gen_finish_inline(tstate, dying, 0);
                LOAD_FRAME_STATE();
                uint32_t *caller = code_base + unit->from_cpy[_PyInterpreterFrame_LASTI(frame)];
                PyObject *receiver = POP();
                Py_DECREF(receiver);
                if (pa_family_of[PA_OPCODE(*caller)] == PA_SEND) {
                    PUSH(retval);
                }
                else {
                    Py_DECREF(retval);
                }
                this_instr = caller;
                JUMPTO(PA_OPARG(*caller));
                DISPATCH();
            }
            pa_clear_and_pop_frame(tstate, dying);
            goto return_to_caller;
        }
        FINISH_ENTRY_FRAME(retval);
    }

    TARGET(YIELD_VALUE) {
        PyObject *retval = POP();
        PA_STACK_TO_CPYTHON(unit, _PyFrame_Stackbase(frame), stack_pointer, PA_YIELD_SAVED(oparg));
        _PyFrame_SetStackPointer(frame, stack_pointer);
        pa_leave_py_level(tstate);
        if (!PA_LOOP_IS_ENTRY(cframe, frame)) {
            /* a generator run inline by FOR_ITER_GEN / SEND_GEN: back to the caller */
            _PyInterpreterFrame *gen_frame = frame;
            frame = gen_frame->previous;
            PA_LOOP_SET_CURRENT(cframe, frame);
            pa_gen_suspend(tstate, gen_frame, 1);
            PA_GEN_SUSPENDED_STATE(gen_frame, PA_YIELD_FROM(oparg));
            PA_FRAME_STEP_PAST(gen_frame);
            _PyFrame_StackPush(frame, retval);
            const void *lasti = PA_CALLER_KEY(frame);
            pa_caller_entry *ce = &pa_caller_cache[pa_code_address_slot(lasti, PA_CALLER_CACHE_SIZE)];
            if (CALLER_CACHED(ce, lasti)) {
                LOAD_CACHED_CALLER_STATE(ce);
                DISPATCH();
            }
            LOAD_CALLER_STATE();
            /* an entry means "goes on at next_instr" to return_to_caller too */
            if (CPY_OFFSET(next_instr) > (uint32_t)_PyInterpreterFrame_LASTI(frame)) {
                CACHE_CALLER_STATE(ce, lasti);
            }
            DISPATCH();
        }
        pa_gen_suspend(tstate, frame, 0);
        PA_GEN_SUSPENDED_STATE(frame, PA_YIELD_FROM(oparg));
        PA_FRAME_STEP_PAST(frame);
        LEAVE_LOOP(retval);
    }

    TARGET(ASYNC_GEN_WRAP) {
        PyObject *v = TOP();
        PyObject *w = async_gen_wrap(v);
        if (w == NULL) {
            goto error;
        }
        SET_TOP(w);
        Py_DECREF(v);
        DISPATCH();
    }

    TARGET(SEND) {
        PyObject *v = POP();
        PyObject *receiver = TOP();
        PyObject *retval;
        PySendResult gen_status = PyIter_Send(receiver, v, &retval);
        Py_DECREF(v);
        if (gen_status == PYGEN_ERROR) {
            goto error;
        }
        if (gen_status == PYGEN_RETURN) {
            Py_DECREF(receiver);
            SET_TOP(retval);
            JUMPTO(oparg);
            DISPATCH();
        }
        PUSH(retval);
        SKIP_CACHE(pa_cache_send);
        DISPATCH();
    }

    TARGET(IMPORT_STAR) {
        PyObject *from = POP();
        int err = import_star(tstate, frame, from);
        Py_DECREF(from);
        if (err != 0) {
            goto error;
        }
        DISPATCH();
    }

    TARGET(SETUP_ANNOTATIONS) {
        if (LOCALS() == NULL) {
            _PyErr_Format(tstate, PyExc_SystemError,
                          "no locals found when setting up annotations");
            goto error;
        }
        if (PyDict_CheckExact(LOCALS())) {
            PyObject *ann = _PyDict_GetItemWithError(LOCALS(), &_Py_ID(__annotations__));
            if (ann == NULL) {
                if (_PyErr_Occurred(tstate)) {
                    goto error;
                }
                ann = PyDict_New();
                if (ann == NULL) {
                    goto error;
                }
                int err = PyDict_SetItem(LOCALS(), &_Py_ID(__annotations__), ann);
                Py_DECREF(ann);
                if (err != 0) {
                    goto error;
                }
            }
        }
        else {
            PyObject *ann = PyObject_GetItem(LOCALS(), &_Py_ID(__annotations__));
            if (ann == NULL) {
                if (!_PyErr_ExceptionMatches(tstate, PyExc_KeyError)) {
                    goto error;
                }
                _PyErr_Clear(tstate);
                ann = PyDict_New();
                if (ann == NULL) {
                    goto error;
                }
                int err = PyObject_SetItem(LOCALS(), &_Py_ID(__annotations__), ann);
                Py_DECREF(ann);
                if (err != 0) {
                    goto error;
                }
            }
            else {
                Py_DECREF(ann);
            }
        }
        DISPATCH();
    }

    TARGET(STORE_NAME) {
        PyObject *name = GETITEM(names, oparg);
        PyObject *v = POP();
        PyObject *ns = LOCALS();
        if (ns == NULL) {
            _PyErr_Format(tstate, PyExc_SystemError, "no locals found when storing %R", name);
            Py_DECREF(v);
            goto error;
        }
        int err = PyDict_CheckExact(ns) ? PyDict_SetItem(ns, name, v)
                                        : PyObject_SetItem(ns, name, v);
        Py_DECREF(v);
        if (err != 0) {
            goto error;
        }
        DISPATCH();
    }

    TARGET(DELETE_NAME) {
        PyObject *name = GETITEM(names, oparg);
        PyObject *ns = LOCALS();
        if (ns == NULL) {
            _PyErr_Format(tstate, PyExc_SystemError, "no locals when deleting %R", name);
            goto error;
        }
        if (PyObject_DelItem(ns, name) != 0) {
            format_exc_check_arg(tstate, PyExc_NameError, NAME_ERROR_MSG, name);
            goto error;
        }
        DISPATCH();
    }

    TARGET(UNPACK_SEQUENCE) {
        PyObject *seq = POP();
        if (PyTuple_CheckExact(seq) && PyTuple_GET_SIZE(seq) == oparg) {
            PyObject **items = _PyTuple_ITEMS(seq);
            for (int i = oparg; --i >= 0; ) {
                PUSH(Py_NewRef(items[i]));
            }
        }
        else if (PyList_CheckExact(seq) && PyList_GET_SIZE(seq) == oparg) {
            PyObject **items = _PyList_ITEMS(seq);
            for (int i = oparg; --i >= 0; ) {
                PUSH(Py_NewRef(items[i]));
            }
        }
        else {
            if (!unpack_iterable(tstate, seq, oparg, -1, stack_pointer + oparg)) {
                Py_DECREF(seq);
                goto error;
            }
            STACK_GROW(oparg);
        }
        Py_DECREF(seq);
        SKIP_CACHE(pa_cache_unpack_sequence);
        DISPATCH();
    }

    TARGET(UNPACK_EX) {
        int totalargs = 1 + (oparg & 0xFF) + (oparg >> 8);
        PyObject *seq = POP();
        if (!unpack_iterable(tstate, seq, oparg & 0xFF, oparg >> 8,
                             stack_pointer + totalargs)) {
            Py_DECREF(seq);
            goto error;
        }
        STACK_GROW(totalargs);
        Py_DECREF(seq);
        DISPATCH();
    }

    TARGET(STORE_ATTR) {
        PyObject *name = GETITEM(names, oparg);
        PyObject *owner = TOP();
        PyObject *v = SECOND();
        STACK_SHRINK(2);
        int err = PyObject_SetAttr(owner, name, v);
        Py_DECREF(v);
        Py_DECREF(owner);
        if (err != 0) {
            goto error;
        }
        SKIP_CACHE(pa_cache_store_attr);
        DISPATCH();
    }

    TARGET(DELETE_ATTR) {
        PyObject *name = GETITEM(names, oparg);
        PyObject *owner = POP();
        int err = PyObject_SetAttr(owner, name, NULL);
        Py_DECREF(owner);
        if (err != 0) {
            goto error;
        }
        DISPATCH();
    }

    TARGET(STORE_GLOBAL) {
        PyObject *name = GETITEM(names, oparg);
        PyObject *v = POP();
        int err = PyDict_SetItem(GLOBALS(), name, v);
        Py_DECREF(v);
        if (err != 0) {
            goto error;
        }
        DISPATCH();
    }

    TARGET(DELETE_GLOBAL) {
        PyObject *name = GETITEM(names, oparg);
        if (PyDict_DelItem(GLOBALS(), name) != 0) {
            if (_PyErr_ExceptionMatches(tstate, PyExc_KeyError)) {
                format_exc_check_arg(tstate, PyExc_NameError, NAME_ERROR_MSG, name);
            }
            goto error;
        }
        DISPATCH();
    }

    PURE_TARGET(SWAP) {
        PyObject *top = TOP();
        SET_TOP(PEEK(oparg));
        PEEK(oparg) = top;
        DISPATCH();
    }

    PURE_TARGET(COPY) {
        PyObject *peek = PEEK(oparg);
        PUSH(Py_NewRef(peek));
        DISPATCH();
    }

    TARGET(LOAD_NAME) {
        PyObject *name = GETITEM(names, oparg);
        PyObject *locals = LOCALS();
        if (locals == NULL) {
            _PyErr_Format(tstate, PyExc_SystemError, "no locals when loading %R", name);
            goto error;
        }
        PyObject *v = load_from_mapping_or_globals(tstate, frame, locals, name);
        if (v == NULL) {
            goto error;
        }
        PUSH(v);
        DISPATCH();
    }

    TARGET(LOAD_FROM_DICT_OR_GLOBALS) {
        PyObject *mapping = TOP();
        PyObject *v = load_from_dict_or_globals(tstate, frame, mapping, GETITEM(names, oparg));
        Py_DECREF(mapping);
        if (v == NULL) {
            STACK_SHRINK(1);
            goto error;
        }
        SET_TOP(v);
        DISPATCH();
    }

    TARGET(LOAD_GLOBAL) {
        PyObject *v = load_global_by_name(tstate, frame, GETITEM(names, oparg >> 1));
        if (v == NULL) {
            goto error;
        }
        if (oparg & 1) {
            PUSH(NULL);
        }
        PUSH(v);
        SKIP_CACHE(pa_cache_load_global);
        DISPATCH();
    }

    TARGET(MAKE_CELL) {
        PyObject *initial = GETLOCAL(oparg);
        PyObject *cell = PyCell_New(initial);
        if (cell == NULL) {
            goto error;
        }
        SETLOCAL(oparg, cell);
        DISPATCH();
    }

    TARGET(DELETE_DEREF) {
        PyObject *cell = GETLOCAL(oparg);
        PyObject *oldobj = PyCell_GET(cell);
        if (oldobj != NULL) {
            PyCell_SET(cell, NULL);
            Py_DECREF(oldobj);
            DISPATCH();
        }
        format_exc_unbound(tstate, PA_FRAME_CODE(frame), oparg);
        goto error;
    }

    TARGET(LOAD_CLASSDEREF) {
        PyObject *value = load_from_mapping_or_deref(tstate, frame, LOCALS(), oparg);
        if (value == NULL) {
            goto error;
        }
        PUSH(value);
        DISPATCH();
    }

    TARGET(LOAD_FROM_DICT_OR_DEREF) {
        PyObject *mapping = TOP();
        PyObject *value = load_from_mapping_or_deref(tstate, frame, mapping, oparg);
        Py_DECREF(mapping);
        if (value == NULL) {
            STACK_SHRINK(1);
            goto error;
        }
        SET_TOP(value);
        DISPATCH();
    }

    TARGET(LOAD_LOCALS) {
        PyObject *locals = LOCALS();
        if (locals == NULL) {
            _PyErr_SetString(tstate, PyExc_SystemError, "no locals found");
            goto error;
        }
        PUSH(Py_NewRef(locals));
        DISPATCH();
    }

    TARGET(LOAD_DEREF) {
        PyObject *value = PyCell_GET(GETLOCAL(oparg));
        if (value == NULL) {
            format_exc_unbound(tstate, PA_FRAME_CODE(frame), oparg);
            goto error;
        }
        PUSH(Py_NewRef(value));
        DISPATCH();
    }

    TARGET(STORE_DEREF) {
        PyObject *v = POP();
        PyObject *cell = GETLOCAL(oparg);
        PyObject *oldobj = PyCell_GET(cell);
        PyCell_SET(cell, v);
        Py_XDECREF(oldobj);
        DISPATCH();
    }

    TARGET(COPY_FREE_VARS) {
        PyCodeObject *co = PA_FRAME_CODE(frame);
        PyObject *closure = PA_FRAME_FUNC(frame)->func_closure;
        int offset = co->co_nlocalsplus - co->co_nfreevars;      /* the first free variable */
        for (int i = 0; i < oparg; ++i) {
            frame->localsplus[offset + i] = Py_NewRef(PyTuple_GET_ITEM(closure, i));
        }
        DISPATCH();
    }

    TARGET(BUILD_STRING) {
        PyObject *str = _PyUnicode_JoinArray(&_Py_STR(empty), stack_pointer - oparg, oparg);
        if (str == NULL) {
            goto error;
        }
        while (--oparg >= 0) {
            PyObject *item = POP();
            Py_DECREF(item);
        }
        PUSH(str);
        DISPATCH();
    }

    TARGET(BUILD_TUPLE) {
        PyObject *tup = PyTuple_New(oparg);
        if (tup == NULL) {
            goto error;
        }
        while (--oparg >= 0) {
            PyTuple_SET_ITEM(tup, oparg, POP());
        }
        PUSH(tup);
        DISPATCH();
    }

    TARGET(BUILD_LIST) {
        PyObject *list = PyList_New(oparg);
        if (list == NULL) {
            goto error;
        }
        while (--oparg >= 0) {
            PyList_SET_ITEM(list, oparg, POP());
        }
        PUSH(list);
        DISPATCH();
    }

    TARGET(LIST_EXTEND) {
        PyObject *iterable = POP();
        PyObject *list = PEEK(oparg);
        PyObject *none_val = _PyList_Extend((PyListObject *)list, iterable);
        if (none_val == NULL) {
            if (_PyErr_ExceptionMatches(tstate, PyExc_TypeError)
                    && Py_TYPE(iterable)->tp_iter == NULL && !PySequence_Check(iterable)) {
                _PyErr_Clear(tstate);
                _PyErr_Format(tstate, PyExc_TypeError,
                              "Value after * must be an iterable, not %.200s",
                              Py_TYPE(iterable)->tp_name);
            }
            Py_DECREF(iterable);
            goto error;
        }
        Py_DECREF(none_val);
        Py_DECREF(iterable);
        DISPATCH();
    }

    TARGET(SET_UPDATE) {
        PyObject *iterable = POP();
        PyObject *set = PEEK(oparg);
        int err = _PySet_Update(set, iterable);
        Py_DECREF(iterable);
        if (err < 0) {
            goto error;
        }
        DISPATCH();
    }

    TARGET(BUILD_SET) {
        PyObject *set = PySet_New(NULL);
        int err = 0;
        if (set == NULL) {
            goto error;
        }
        for (int i = oparg; i > 0; i--) {
            PyObject *item = PEEK(i);
            if (err == 0) {
                err = PySet_Add(set, item);
            }
            Py_DECREF(item);
        }
        STACK_SHRINK(oparg);
        if (err != 0) {
            Py_DECREF(set);
            goto error;
        }
        PUSH(set);
        DISPATCH();
    }

    TARGET(BUILD_MAP) {
        PyObject *map = _PyDict_NewPresized(oparg);
        if (map == NULL) {
            goto error;
        }
        int err = 0;
        for (int i = 0; i < oparg && err == 0; i++) {
            err = PyDict_SetItem(map, PEEK(2 * (oparg - i)), PEEK(2 * (oparg - i) - 1));
        }
        if (err != 0) {
            Py_DECREF(map);
            goto error;
        }
        while (oparg--) {
            Py_DECREF(POP());
            Py_DECREF(POP());
        }
        PUSH(map);
        DISPATCH();
    }

    TARGET(BUILD_CONST_KEY_MAP) {
        PyObject *keys = TOP();
        if (!PyTuple_CheckExact(keys) || PyTuple_GET_SIZE(keys) != (Py_ssize_t)oparg) {
            _PyErr_SetString(tstate, PyExc_SystemError, "bad BUILD_CONST_KEY_MAP keys argument");
            goto error;
        }
        PyObject *map = _PyDict_NewPresized(oparg);
        if (map == NULL) {
            goto error;
        }
        for (int i = 0; i < oparg; i++) {
            if (PyDict_SetItem(map, PyTuple_GET_ITEM(keys, i), PEEK(oparg + 1 - i)) != 0) {
                Py_DECREF(map);
                goto error;
            }
        }
        Py_DECREF(POP());
        while (oparg--) {
            Py_DECREF(POP());
        }
        PUSH(map);
        DISPATCH();
    }

    TARGET(DICT_UPDATE) {
        PyObject *update = POP();
        PyObject *dict = PEEK(oparg);
        if (PyDict_Update(dict, update) < 0) {
            if (_PyErr_ExceptionMatches(tstate, PyExc_AttributeError)) {
                _PyErr_Format(tstate, PyExc_TypeError, "'%.200s' object is not a mapping",
                              Py_TYPE(update)->tp_name);
            }
            Py_DECREF(update);
            goto error;
        }
        Py_DECREF(update);
        DISPATCH();
    }

    TARGET(DICT_MERGE) {
        PyObject *update = POP();
        PyObject *dict = PEEK(oparg);
        if (_PyDict_MergeEx(dict, update, 2) < 0) {
            /* the function under the positional arguments: NULL, function (pyadapt's order),
             * or function, NULL (3.13's PUSH_NULL after the callable) */
            PyObject *func = PEEK(2 + oparg) != NULL ? PEEK(2 + oparg) : PEEK(3 + oparg);
            format_kwargs_error(tstate, func, update);
            Py_DECREF(update);
            goto error;
        }
        Py_DECREF(update);
        DISPATCH();
    }

    TARGET(MAP_ADD) {
        PyObject *value = TOP();
        PyObject *key = SECOND();
        STACK_SHRINK(2);
        PyObject *map = PEEK(oparg);
        int err = PyDict_SetItem(map, key, value);
        Py_DECREF(key);
        Py_DECREF(value);
        if (err != 0) {
            goto error;
        }
        DISPATCH();
    }

    TARGET(LIST_APPEND) {
        PyObject *v = POP();
        PyObject *list = PEEK(oparg);   /* the comprehension's own exact list */
        Py_ssize_t len = Py_SIZE(list);
        if (((PyListObject *)list)->allocated > len) {
            /* room left: the stack's reference moves into the list (CPython's
             * _PyList_AppendTakeRef); PyList_Append's call, checks and reference pair
             * cost about ten instructions per item of every list comprehension */
            PyList_SET_ITEM(list, len, v);
            Py_SET_SIZE(list, len + 1);
            DISPATCH();
        }
        int err = PyList_Append(list, v);
        Py_DECREF(v);
        if (err < 0) {
            goto error;
        }
        DISPATCH();
    }

    TARGET(SET_ADD) {
        PyObject *v = POP();
        PyObject *set = PEEK(oparg);
        int err = PySet_Add(set, v);
        Py_DECREF(v);
        if (err != 0) {
            goto error;
        }
        DISPATCH();
    }

    TARGET(LOAD_ATTR) {
        PyObject *name = GETITEM(names, oparg);
        PyObject *owner = TOP();
        PyObject *res = PyObject_GetAttr(owner, name);
        if (res == NULL) {
            goto error;
        }
        Py_DECREF(owner);
        SET_TOP(res);
        SKIP_CACHE(pa_cache_load_attr);
        DISPATCH();
    }

    TARGET(LOAD_METHOD) {
        PyObject *name = GETITEM(names, oparg);
        PyObject *obj = TOP();
        PyObject *meth = NULL;
        int meth_found = _PyObject_GetMethod(obj, name, &meth);
        if (meth == NULL) {
            goto error;
        }
        if (meth_found) {
            SET_TOP(meth);     /* meth | self | args... */
            PUSH(obj);
        }
        else {
            SET_TOP(NULL);     /* NULL | attribute | args... */
            Py_DECREF(obj);
            PUSH(meth);
        }
        SKIP_CACHE(pa_cache_load_method);
        DISPATCH();
    }

    TARGET(COMPARE_OP) {
        PyObject *right = POP();
        PyObject *left = TOP();
        PyObject *res = PyObject_RichCompare(left, right, oparg);
        SET_TOP(res);
        Py_DECREF(left);
        Py_DECREF(right);
        if (res == NULL) {
            goto error;
        }
        SKIP_CACHE(pa_cache_compare_op);
        DISPATCH();
    }

    PURE_TARGET(IS_OP) {
        PyObject *right = POP();
        PyObject *left = TOP();
        int res = Py_Is(left, right) ^ oparg;
        SET_TOP(Py_NewRef(res ? Py_True : Py_False));
        DECREF_SYNC(left);
        DECREF_SYNC(right);
        DISPATCH();
    }

    TARGET(CONTAINS_OP) {
        PyObject *right = POP();
        PyObject *left = POP();
        int res = PySequence_Contains(right, left);
        CONTAINS_RESULT(res, left, right);
    }

    TARGET(IMPORT_NAME) {
        PyObject *name = GETITEM(names, oparg);
        PyObject *fromlist = POP();
        PyObject *level = TOP();
        PyObject *res = import_name(tstate, frame, name, fromlist, level);
        Py_DECREF(level);
        Py_DECREF(fromlist);
        SET_TOP(res);
        if (res == NULL) {
            goto error;
        }
        DISPATCH();
    }

    TARGET(IMPORT_FROM) {
        PyObject *name = GETITEM(names, oparg);
        PyObject *res = import_from(tstate, TOP(), name);
        PUSH(res);
        if (res == NULL) {
            goto error;
        }
        DISPATCH();
    }

    PURE_TARGET(JUMP) {
        JUMP_CHECKED(oparg);
        DISPATCH();
    }

    PURE_TARGET(JUMP_NO_INTERRUPT) {
        /* the `yield from` / `await` loop: interrupts belong to the innermost generator */
        JUMPTO(oparg);
        DISPATCH();
    }

    PURE_TARGET(POP_JUMP_IF_FALSE) {
        PyObject *cond = POP();
        int truth;
        if (Py_IsTrue(cond)) {
            truth = 1;
            Py_DECREF(cond);
        }
        else if (Py_IsFalse(cond)) {
            truth = 0;
            Py_DECREF(cond);
        }
        else {
            SYNC_LASTI();
            truth = PyObject_IsTrue(cond);
            Py_DECREF(cond);
            if (truth < 0) {
                goto error;
            }
        }
        if (!truth) {
            JUMP_CHECKED(oparg);
        }
        DISPATCH();
    }

    PURE_TARGET(POP_JUMP_IF_TRUE) {
        PyObject *cond = POP();
        int truth;
        if (Py_IsTrue(cond)) {
            truth = 1;
            Py_DECREF(cond);
        }
        else if (Py_IsFalse(cond)) {
            truth = 0;
            Py_DECREF(cond);
        }
        else {
            SYNC_LASTI();
            truth = PyObject_IsTrue(cond);
            Py_DECREF(cond);
            if (truth < 0) {
                goto error;
            }
        }
        if (truth) {
            JUMP_CHECKED(oparg);
        }
        DISPATCH();
    }

    PURE_TARGET(POP_JUMP_IF_NONE) {
        PyObject *value = POP();
        int is_none = Py_IsNone(value);
        DECREF_SYNC(value);
        if (is_none) {
            JUMP_CHECKED(oparg);
        }
        DISPATCH();
    }

    PURE_TARGET(POP_JUMP_IF_NOT_NONE) {
        PyObject *value = POP();
        int is_none = Py_IsNone(value);
        DECREF_SYNC(value);
        if (!is_none) {
            JUMP_CHECKED(oparg);
        }
        DISPATCH();
    }

    TARGET(JUMP_IF_FALSE_OR_POP) {
        PyObject *cond = TOP();
        int truth = PyObject_IsTrue(cond);
        if (truth < 0) {
            goto error;
        }
        if (truth) {
            STACK_SHRINK(1);
            Py_DECREF(cond);
        }
        else {
            JUMPTO(oparg);
        }
        DISPATCH();
    }

    TARGET(JUMP_IF_TRUE_OR_POP) {
        PyObject *cond = TOP();
        int truth = PyObject_IsTrue(cond);
        if (truth < 0) {
            goto error;
        }
        if (truth) {
            JUMPTO(oparg);
        }
        else {
            STACK_SHRINK(1);
            Py_DECREF(cond);
        }
        DISPATCH();
    }

    TARGET(RERAISE) {
        if (oparg) {
            PyObject *lasti = PEEK(oparg + 1);
            if (!PyLong_Check(lasti)) {
                _PyErr_SetString(tstate, PyExc_SystemError, "lasti is not an int");
                goto error;
            }
            PA_FRAME_SET_LAST_INSTR(frame, cpy_base + PyLong_AsLong(lasti));
        }
        PyObject *val = POP();
        PyObject *exc = Py_NewRef(PyExceptionInstance_Class(val));
        _PyErr_Restore(tstate, exc, val, PyException_GetTraceback(val));
        goto reraise;
    }

    TARGET(RAISE_VARARGS) {
        PyObject *cause = NULL, *exc = NULL;
        switch (oparg) {
        case 2:
            cause = POP();
            /* fall through */
        case 1:
            exc = POP();
            /* fall through */
        case 0:
            if (do_raise(tstate, exc, cause)) {
                goto reraise;
            }
            break;
        default:
            _PyErr_SetString(tstate, PyExc_SystemError, "bad RAISE_VARARGS oparg");
            break;
        }
        goto error;
    }

    TARGET(MAKE_FUNCTION) {
        PyObject *codeobj = POP();
        PyFunctionObject *func = (PyFunctionObject *)PyFunction_New(codeobj, GLOBALS());
        Py_DECREF(codeobj);
        if (func == NULL) {
            goto error;
        }
        if (oparg & 0x08) {
            func->func_closure = POP();
        }
        if (oparg & 0x04) {
            func->func_annotations = POP();
        }
        if (oparg & 0x02) {
            func->func_kwdefaults = POP();
        }
        if (oparg & 0x01) {
            func->func_defaults = POP();
        }
        else if (!(oparg & 0x02)) {
            /* the version its code's functions share, if the specializer gave one
             * (pa_func_version) */
            pa_unit *code_unit = pa_unit_for_code((PyCodeObject *)func->func_code);
            if (code_unit != NULL) {
                func->func_version = code_unit->func_version;
            }
        }
        PUSH((PyObject *)func);
        DISPATCH();
    }

    TARGET(BUILD_SLICE) {
        PyObject *step = oparg == 3 ? POP() : NULL;
        PyObject *stop = POP();
        PyObject *start = TOP();
        PyObject *slice = PySlice_New(start, stop, step);
        Py_DECREF(start);
        Py_DECREF(stop);
        Py_XDECREF(step);
        SET_TOP(slice);
        if (slice == NULL) {
            goto error;
        }
        DISPATCH();
    }

    TARGET(FORMAT_VALUE) {
        int which_conversion = oparg & FVC_MASK;
        int have_fmt_spec = (oparg & FVS_MASK) == FVS_HAVE_SPEC;
        PyObject *fmt_spec = have_fmt_spec ? POP() : NULL;
        PyObject *value = POP();
        PyObject *(*conv_fn)(PyObject *);
        switch (which_conversion) {
        case FVC_NONE:  conv_fn = NULL; break;
        case FVC_STR:   conv_fn = PyObject_Str; break;
        case FVC_REPR:  conv_fn = PyObject_Repr; break;
        case FVC_ASCII: conv_fn = PyObject_ASCII; break;
        default:
            _PyErr_Format(tstate, PyExc_SystemError, "unexpected conversion flag %d",
                          which_conversion);
            Py_DECREF(value);
            Py_XDECREF(fmt_spec);
            goto error;
        }
        if (conv_fn != NULL) {
            PyObject *converted = conv_fn(value);
            Py_DECREF(value);
            if (converted == NULL) {
                Py_XDECREF(fmt_spec);
                goto error;
            }
            value = converted;
        }
        PyObject *result;
        if (PyUnicode_CheckExact(value) && fmt_spec == NULL) {
            result = value;
        }
        else {
            result = PyObject_Format(value, fmt_spec);
            Py_DECREF(value);
            Py_XDECREF(fmt_spec);
            if (result == NULL) {
                goto error;
            }
        }
        PUSH(result);
        DISPATCH();
    }

    /* ---- instructions whose semantics first came with CPython 3.13's bytecode ---- */

    TARGET(TO_BOOL) {
        PyObject *value = TOP();
        if (!PyBool_Check(value)) {
            int truth = PyObject_IsTrue(value);
            if (truth < 0) {
                goto error;
            }
            SET_TOP(Py_NewRef(truth ? Py_True : Py_False));
            Py_DECREF(value);
        }
        SKIP_CACHE(pa_cache_to_bool);
        DISPATCH();
    }

    TARGET(CONVERT_VALUE) {
        /* the f-string conversions !s, !r, !a (FVC_STR, FVC_REPR, FVC_ASCII) */
        static PyObject *(*const conversions[])(PyObject *) = {
            [FVC_STR] = PyObject_Str, [FVC_REPR] = PyObject_Repr, [FVC_ASCII] = PyObject_ASCII,
        };
        if (oparg < FVC_STR || oparg > FVC_ASCII) {
            _PyErr_Format(tstate, PyExc_SystemError, "unexpected conversion flag %d", oparg);
            goto error;
        }
        PyObject *value = TOP();
        PyObject *converted = conversions[oparg](value);
        if (converted == NULL) {
            goto error;
        }
        SET_TOP(converted);
        Py_DECREF(value);
        DISPATCH();
    }

    TARGET(FORMAT_SIMPLE) {
        PyObject *value = TOP();
        if (PyUnicode_CheckExact(value)) {
            DISPATCH();
        }
        PyObject *formatted = PyObject_Format(value, NULL);
        if (formatted == NULL) {
            goto error;
        }
        SET_TOP(formatted);
        Py_DECREF(value);
        DISPATCH();
    }

    TARGET(FORMAT_WITH_SPEC) {
        PyObject *spec = POP();
        PyObject *value = TOP();
        PyObject *formatted = PyObject_Format(value, spec);
        Py_DECREF(spec);
        if (formatted == NULL) {
            goto error;
        }
        SET_TOP(formatted);
        Py_DECREF(value);
        DISPATCH();
    }

    TARGET(SET_FUNCTION_ATTRIBUTE) {
        /* a function MAKE_FUNCTION just made takes one of its parts (the flag bits are
         * MAKE_FUNCTION's) */
        PyFunctionObject *func = (PyFunctionObject *)TOP();
        PyObject **part;
        switch (oparg) {
        case 0x01: part = &func->func_defaults; break;
        case 0x02: part = &func->func_kwdefaults; break;
        case 0x04: part = &func->func_annotations; break;
        case 0x08: part = &func->func_closure; break;
        default:
            _PyErr_Format(tstate, PyExc_SystemError, "unexpected function attribute %d", oparg);
            goto error;
        }
        if (oparg & 0x03) {
            func->func_version = 0;     /* versions are shared by functions without defaults */
        }
        STACK_SHRINK(1);
        Py_XSETREF(*part, TOP());       /* the stack's reference moves into the function */
        SET_TOP((PyObject *)func);
        DISPATCH();
    }

    /* 3.13's call layout is the callable, then its self or NULL, then the arguments; pyadapt's
     * CALL family reads NULL or a method, then the callable or self.  The two differ only in
     * where a NULL is, so 3.13's PUSH_NULL, which follows the callable's evaluation, puts it
     * under the callable, and 3.13's CALL and CALL_FUNCTION_EX are pyadapt's (the other NULL
     * producers, LOAD_GLOBAL's bit 0 and the method loads, push it first already). */
    PURE_TARGET(PUSH_NULL_UNDER) {
        PyObject *callable = TOP();
        SET_TOP(NULL);
        PUSH(callable);
        DISPATCH();
    }

    /* 3.13's CALL_KW: CALL with the keyword names on the stack, where
     * pyadapt's CALL reads them from the kwnames register (KW_NAMES).  3.13's compiler loads
     * them with LOAD_CONST, so the code object's constants keep the tuple alive for the
     * call: the stack's reference is given back and the register borrows, as after
     * KW_NAMES. */
    TARGET(CALL_KW) {
        PyObject *names = POP();
        PA_ASSERT(PyTuple_CheckExact(names) && Py_REFCNT(names) > 1);
        kwnames = names;
        Py_DECREF(names);
        goto TARGET_CALL;
    }

    /* 3.13's fused local loads and stores: the oparg holds two local indices, the first in
     * bits 4-7 and the second in bits 0-3 (3.13's compiler uses them where both are bound) */
    TARGET(LOAD_FAST_LOAD_FAST) {
        PyObject *first = GETLOCAL(oparg >> 4);
        PyObject *second = GETLOCAL(oparg & 15);
        if (first == NULL || second == NULL) {
            oparg = first == NULL ? oparg >> 4 : oparg & 15;
            goto unbound_local_error;
        }
        PUSH(Py_NewRef(first));
        PUSH(Py_NewRef(second));
        DISPATCH();
    }

    TARGET(STORE_FAST_LOAD_FAST) {
        SETLOCAL(oparg >> 4, POP());
        PyObject *value = GETLOCAL(oparg & 15);
        if (value == NULL) {
            oparg &= 15;
            goto unbound_local_error;
        }
        PUSH(Py_NewRef(value));
        DISPATCH();
    }

    TARGET(STORE_FAST_STORE_FAST) {
        SETLOCAL(oparg >> 4, POP());
        SETLOCAL(oparg & 15, POP());
        DISPATCH();
    }

    PURE_TARGET(KW_NAMES) {
        kwnames = GETITEM(consts, oparg);
        DISPATCH();
    }

    TARGET(CALL) {
        CALL_PROLOGUE();
        int nkw = kwnames == NULL ? 0 : (int)PyTuple_GET_SIZE(kwnames);
        int positional_args = total_args - nkw;
        SKIP_CACHE(pa_cache_call);
        /* C levels given back around the call below: a Python function CPython's loop would
         * call inline goes through C here (cold, or rejected), where the loop it enters
         * takes its entry's levels (3.12; none on 3.11) */
        int entry_credit = 0;

        if (Py_TYPE(function) == &PyFunction_Type && PA_FUNCTION_PLAIN(function)
                && !INLINE_REFUSED()) {
            PyFunctionObject *func = (PyFunctionObject *)function;
            PyCodeObject *code = (PyCodeObject *)func->func_code;
            pa_unit *callee;
            if ((callee = pa_unit_for_call(code)) != NULL
                    && callee->reject_reason == 0) {
                size_t size = code->co_nlocalsplus + code->co_stacksize + FRAME_SPECIALS_SIZE;
                _PyInterpreterFrame *new_frame = pa_push_frame(tstate, size);
                if (new_frame == NULL) {
                    goto error;
                }
                /* the new frame takes over the function reference held by the stack */
                PA_FRAME_INIT_SPECIALS(new_frame, func,
                                       (code->co_flags & CO_OPTIMIZED) ? NULL
                                           : func->func_globals,
                                       code);
                for (int i = 0; i < code->co_nlocalsplus; i++) {
                    new_frame->localsplus[i] = NULL;
                }
                PyObject *call_kwnames = kwnames;
                kwnames = NULL;
                stack_pointer = base;
                if (bind_arguments(tstate, func, new_frame->localsplus, args,
                                   positional_args, call_kwnames) < 0) {
                    pa_clear_and_pop_frame(tstate, new_frame);
                    goto error;
                }
                _PyFrame_SetStackPointer(frame, stack_pointer);
                PA_FRAME_SUSPEND_IN(frame, cpy_base + CPY_OFFSET(this_instr),
                                    PA_CPY_CALL_LAST_CACHE);
                new_frame->previous = frame;
                frame = new_frame;
                PA_LOOP_SET_CURRENT(cframe, frame);
                pa_stats.inlined_calls++;
                goto start_new_frame;
            }
            if (callee == NULL || callee->reject_reason == PA_FB_COLD) {
                /* a cold callee goes through C where CPython's loop inlines the call: the
                 * caller shows the call's last cache entry while it runs, as natively
                 * (3.13: the call itself) */
                PA_FRAME_SHOW_IN_CALL(frame, cpy_base + CPY_OFFSET(this_instr),
                                      PA_CPY_CALL_LAST_CACHE);
            }
            entry_credit = PA_LOOP_ENTRY_C_LEVELS;
        }
        PA_C_RECURSION_REMAINING(tstate) += entry_credit;
        PyObject *res = PyObject_Vectorcall(function, args,
                                            positional_args | PY_VECTORCALL_ARGUMENTS_OFFSET,
                                            kwnames);
        PA_C_RECURSION_REMAINING(tstate) -= entry_credit;
        kwnames = NULL;
        Py_DECREF(function);
        for (int i = 0; i < total_args; i++) {
            Py_DECREF(args[i]);
        }
        stack_pointer = base;
        PUSH(res);
        if (res == NULL) {
            goto error;
        }
        HANDOVER_IF_TRACING(PA_CPY_CALL_LAST_CACHE);
        CHECK_EVAL_BREAKER();
        DISPATCH();
    }

    TARGET(CALL_FUNCTION_EX) {
        PyObject *func, *callargs, *kwargs = NULL, *result;
        if (oparg & 0x01) {
            kwargs = POP();
            if (!PyDict_CheckExact(kwargs)) {
                PyObject *d = PyDict_New();
                if (d == NULL) {
                    goto error;
                }
                if (_PyDict_MergeEx(d, kwargs, 2) < 0) {
                    Py_DECREF(d);
                    format_kwargs_error(tstate, SECOND(), kwargs);
                    Py_DECREF(kwargs);
                    goto error;
                }
                Py_DECREF(kwargs);
                kwargs = d;
            }
        }
        callargs = POP();
        func = TOP();
        if (!PyTuple_CheckExact(callargs)) {
            if (check_args_iterable(tstate, func, callargs) < 0) {
                Py_DECREF(callargs);
                Py_XDECREF(kwargs);
                goto error;
            }
            Py_SETREF(callargs, PySequence_Tuple(callargs));
            if (callargs == NULL) {
                Py_XDECREF(kwargs);
                goto error;
            }
        }
        result = PyObject_Call(func, callargs, kwargs);
        Py_DECREF(func);
        Py_DECREF(callargs);
        Py_XDECREF(kwargs);
        STACK_SHRINK(1);
        SET_TOP(result);    /* replaces the NULL below the callable */
        if (result == NULL) {
            goto error;
        }
        HANDOVER_IF_TRACING(0);
        CHECK_EVAL_BREAKER();
        DISPATCH();
    }

    /* ================= quickening: superinstructions ================= */

/* The second half of a superinstruction (both halves are pure, or sync themselves). */
#define NEXT_HALF() \
    do { \
        this_instr = next_instr; \
        oparg = (int)PA_OPARG(*next_instr++); \
    } while (0)

    PURE_TARGET(LOAD_FAST__LOAD_FAST) {
        PyObject *value = GETLOCAL(oparg);
        if (value == NULL) {
            goto unbound_local_error;
        }
        PUSH(Py_NewRef(value));
        NEXT_HALF();
        value = GETLOCAL(oparg);
        if (value == NULL) {
            goto unbound_local_error;
        }
        PUSH(Py_NewRef(value));
        DISPATCH();
    }

    PURE_TARGET(LOAD_FAST__LOAD_CONST) {
        PyObject *value = GETLOCAL(oparg);
        if (value == NULL) {
            goto unbound_local_error;
        }
        PUSH(Py_NewRef(value));
        NEXT_HALF();
        PUSH(Py_NewRef(GETITEM(consts, oparg)));
        DISPATCH();
    }

    PURE_TARGET(LOAD_CONST__LOAD_FAST) {
        PUSH(Py_NewRef(GETITEM(consts, oparg)));
        NEXT_HALF();
        PyObject *value = GETLOCAL(oparg);
        if (value == NULL) {
            goto unbound_local_error;
        }
        PUSH(Py_NewRef(value));
        DISPATCH();
    }

    PURE_TARGET(STORE_FAST__LOAD_FAST) {
        PyObject *value = POP();
        SETLOCAL(oparg, value);
        NEXT_HALF();
        value = GETLOCAL(oparg);
        if (value == NULL) {
            goto unbound_local_error;
        }
        PUSH(Py_NewRef(value));
        DISPATCH();
    }

    PURE_TARGET(STORE_FAST__STORE_FAST) {
        PyObject *value = POP();
        SETLOCAL(oparg, value);
        NEXT_HALF();
        value = POP();
        SETLOCAL(oparg, value);
        DISPATCH();
    }

    /* ================= LOAD_ATTR ================= */

/* The values index of `owner`'s type at a polymorphic instance-value site, into `out`: the
 * site's own (cache->type_version, cache->index), else the one of type slots `slot_a`, `slot_b`
 * (pa_word.h) that holds the type, else one that `add` fills for it now; a full site
 * (add refuses) deoptimizes. */
#define INSTANCE_VALUE_INDEX(out, owner, cache, slot_a, slot_b, add)                        \
    do {                                                                                   \
        uint32_t tv_ = Py_TYPE(owner)->tp_version_tag;                                     \
        (out) = (cache)->index;                                                            \
        if (tv_ != (cache)->type_version) {                                                \
            uint32_t slot_ = pa_type_slot_find(tv_, (slot_a), (slot_b));                   \
            if (slot_ == PA_TYPE_SLOT_FREE) {                                              \
                SYNC_LASTI();                                                              \
                slot_ = add((owner), GETITEM(names, oparg), this_instr);                   \
                DEOPT_IF(slot_ == PA_TYPE_SLOT_FREE);                                      \
            }                                                                              \
            (out) = PA_TYPE_SLOT_INDEX(slot_);                                             \
        }                                                                                  \
    } while (0)

/* The value at `index` of the owner's inline values replaces the owner on the stack (a miss
 * if it has no values, or none there): the end of both instance-value forms. */
#define LOAD_INSTANCE_VALUE(owner, index)                                                   \
    do {                                                                                   \
        PyDictValues *values_ = PA_GUARDED_INSTANCE_VALUES(owner);                         \
        DEOPT_IF(values_ == NULL);                                                         \
        PyObject *res_ = values_->values[(index)];                                         \
        DEOPT_IF(res_ == NULL);                                                            \
        STAT_HIT();                                                                        \
        SET_TOP(Py_NewRef(res_));                                                          \
        DECREF_SYNC(owner);                                                                \
        SKIP_CACHE(pa_cache_load_attr);                                                    \
        DISPATCH();                                                                        \
    } while (0)

    TARGET(LOAD_ATTR_ADAPTIVE) {
        ADAPTIVE(LOAD_ATTR, pa_specialize_load_attr(TOP(), GETITEM(names, oparg), this_instr));
    }

    PURE_TARGET(LOAD_ATTR_INSTANCE_VALUE) {
        pa_cache_load_attr *cache = (pa_cache_load_attr *)next_instr;
        PyObject *owner = TOP();
        uint32_t index;
        INSTANCE_VALUE_INDEX(index, owner, cache, cache->descr_lo, cache->descr_hi,
                             pa_add_load_attr_type);
        LOAD_INSTANCE_VALUE(owner, index);
    }

/* The shared attribute table had no entry for the owner's type and the site's name: fill it
 * (pa_internal.h), counting the fill in the site's `fills` (a cache field the megamorphic
 * forms do not otherwise use); a type the table does not take, and every type once the site
 * has filled PA_ATTR_FILLS_MAX entries, misses: a site that meets new types without end
 * (classes made in a loop) spends its miss budget and deoptimizes instead of paying a fill,
 * which costs more than the generic path, at each execution. */
#define PA_ATTR_FILLS_MAX 64
#define FILL_ATTR_ENTRY(e, owner, name, kind, fills)                                         \
    do {                                                                                   \
        DEOPT_IF((fills) >= PA_ATTR_FILLS_MAX);                                            \
        SYNC_LASTI();                                                                      \
        (e) = pa_attr_table_fill((owner), (name), this_instr, (kind));                     \
        DEOPT_IF((e) == NULL);                                                             \
        (fills)++;                                                                         \
    } while (0)

    PURE_TARGET(LOAD_ATTR_INSTANCE_VALUE_MEGA) {
        /* the values index of the owner's type: from the site's own three type slots, else
         * from the shared attribute table (filled for a type the first time the site meets
         * it), whose answer then takes the slot of the type's version modulo 3 -- one store,
         * no duplicates, and of richards' four task classes (consecutive versions) two keep
         * their slots where a most-recent-first order would lose all four in turn */
        pa_cache_load_attr *cache = (pa_cache_load_attr *)next_instr;
        PyObject *owner = TOP();
        uint32_t tv = Py_TYPE(owner)->tp_version_tag;
        uint32_t slot = pa_type_slot_find3(tv, cache->type_version, cache->descr_lo,
                                           cache->descr_hi);
        if (slot == PA_TYPE_SLOT_FREE) {
            PyObject *name = GETITEM(names, oparg);
            pa_attr_entry *e = pa_attr_find(PA_ATTR_VALUE, tv, name);
            if (e == NULL) {
                FILL_ATTR_ENTRY(e, owner, name, PA_ATTR_VALUE, cache->index);
            }
            if (!PA_TYPE_SLOT_FITS(tv, e->aux)) {
                LOAD_INSTANCE_VALUE(owner, e->aux);
            }
            slot = PA_TYPE_SLOT(tv, e->aux);
            switch (tv % 3) {
            case 0: cache->type_version = slot; break;
            case 1: cache->descr_lo = slot; break;
            default: cache->descr_hi = slot; break;
            }
        }
        LOAD_INSTANCE_VALUE(owner, PA_TYPE_SLOT_INDEX(slot));
    }

    PURE_TARGET(LOAD_ATTR_WITH_HINT) {
        pa_cache_load_attr *cache = (pa_cache_load_attr *)next_instr;
        PyObject *owner = TOP();
        DEOPT_IF(Py_TYPE(owner)->tp_version_tag != cache->type_version);
        PyDictObject *dict = PA_MANAGED_DICT(owner);
        DEOPT_IF(dict == NULL);
        PyDictKeysObject *keys = dict->ma_keys;
        DEOPT_IF(!DK_IS_UNICODE(keys) || cache->index >= (uint32_t)keys->dk_nentries);
        PyDictUnicodeEntry *ep = DK_UNICODE_ENTRIES(keys) + cache->index;
        DEOPT_IF(ep->me_key != GETITEM(names, oparg));
        PyObject *res = dict->ma_values ? dict->ma_values->values[cache->index] : ep->me_value;
        DEOPT_IF(res == NULL);
        STAT_HIT();
        SET_TOP(Py_NewRef(res));
        DECREF_SYNC(owner);
        SKIP_CACHE(pa_cache_load_attr);
        DISPATCH();
    }

    PURE_TARGET(LOAD_ATTR_SLOT) {
        pa_cache_load_attr *cache = (pa_cache_load_attr *)next_instr;
        PyObject *owner = TOP();
        DEOPT_IF(Py_TYPE(owner)->tp_version_tag != cache->type_version);
        PyObject *res = *(PyObject **)((char *)owner + cache->index);
        DEOPT_IF(res == NULL);
        STAT_HIT();
        SET_TOP(Py_NewRef(res));
        DECREF_SYNC(owner);
        SKIP_CACHE(pa_cache_load_attr);
        DISPATCH();
    }

    PURE_TARGET(LOAD_ATTR_MODULE) {
        pa_cache_load_attr *cache = (pa_cache_load_attr *)next_instr;
        PyObject *owner = TOP();
        DEOPT_IF(!PyModule_CheckExact(owner));
        PyDictObject *dict = (PyDictObject *)((PyModuleObject *)owner)->md_dict;
        DEOPT_IF(dict->ma_keys->dk_version != cache->type_version);
        PyObject *res = DK_UNICODE_ENTRIES(dict->ma_keys)[cache->index].me_value;
        DEOPT_IF(res == NULL);
        STAT_HIT();
        SET_TOP(Py_NewRef(res));
        DECREF_SYNC(owner);
        SKIP_CACHE(pa_cache_load_attr);
        DISPATCH();
    }

    PURE_TARGET(LOAD_ATTR_CLASS) {
        pa_cache_load_attr *cache = (pa_cache_load_attr *)next_instr;
        PyObject *owner = TOP();
        DEOPT_IF(Py_TYPE(owner) != &PyType_Type);
        DEOPT_IF(((PyTypeObject *)owner)->tp_version_tag != cache->type_version);
        STAT_HIT();
        PyObject *res = PA_CACHED_PTR(cache);
        SET_TOP(Py_NewRef(res));
        DECREF_SYNC(owner);
        SKIP_CACHE(pa_cache_load_attr);
        DISPATCH();
    }

    TARGET(LOAD_ATTR_PROPERTY) {
        pa_cache_load_attr *cache = (pa_cache_load_attr *)next_instr;
        PyObject *owner = TOP();
        DEOPT_IF(INLINE_REFUSED());
        DEOPT_IF(Py_TYPE(owner)->tp_version_tag != cache->type_version);
        /* The cache holds the property (the type's dict keeps it while the version holds),
         * not its getter: property.__init__ can run again on the same object, replace the
         * getter in place and free the old one, and no version changes.  So the getter is
         * read each time and must still be the function of the version we cached. */
        PyObject *getter = ((pa_property *)PA_CACHED_PTR(cache))->prop_get;
        DEOPT_IF(getter == NULL || !PyFunction_Check(getter));
        PyFunctionObject *fget = (PyFunctionObject *)getter;
        DEOPT_IF(fget->func_version != cache->index);
        STAT_HIT();
        STACK_SHRINK(1);
        Py_INCREF(fget);
        _PyInterpreterFrame *new_frame = push_frame_with_args(tstate, fget, &owner, 1);
        if (new_frame == NULL) {
            goto error;
        }
        SKIP_CACHE(pa_cache_load_attr);
        ENTER_INLINE_FRAME(new_frame, PA_CPY_GETTER_SHOWS);
    }

    TARGET(LOAD_ATTR_GETATTRIBUTE_OVERRIDDEN) {
        pa_cache_load_attr *cache = (pa_cache_load_attr *)next_instr;
        PyObject *owner = TOP();
        DEOPT_IF(INLINE_REFUSED());
        DEOPT_IF(Py_TYPE(owner)->tp_version_tag != cache->type_version);
        PyFunctionObject *getattribute = (PyFunctionObject *)PA_CACHED_PTR(cache);
        DEOPT_IF(getattribute->func_version != cache->index);
        STAT_HIT();
        STACK_SHRINK(1);
        PyObject *callargs[2] = {owner, Py_NewRef(GETITEM(names, oparg))};
        Py_INCREF(getattribute);
        _PyInterpreterFrame *new_frame = push_frame_with_args(tstate, getattribute, callargs, 2);
        if (new_frame == NULL) {
            goto error;
        }
        SKIP_CACHE(pa_cache_load_attr);
        ENTER_INLINE_FRAME(new_frame, PA_CPY_GETTER_SHOWS);
    }

/* The instance has no attribute of the name, so the class's answer holds: its type's
 * version, no materialized __dict__, and the shared keys' version, which moves when any
 * instance of the type gains the name among its inline values. */
#define NO_INSTANCE_ATTR_GUARD(OWNER, TYPE_VERSION, KEYS_VERSION) \
    do { \
        PyTypeObject *tp_ = Py_TYPE(OWNER); \
        DEOPT_IF(tp_->tp_version_tag != (TYPE_VERSION)); \
        DEOPT_IF(PA_MANAGED_DICT(OWNER) != NULL); \
        DEOPT_IF(((PyHeapTypeObject *)tp_)->ht_cached_keys->dk_version != (KEYS_VERSION)); \
    } while (0)

    PURE_TARGET(LOAD_ATTR_NONDESCRIPTOR_WITH_VALUES) {
        /* a plain class attribute through an instance; index: the shared keys version */
        pa_cache_load_attr *cache = (pa_cache_load_attr *)next_instr;
        PyObject *owner = TOP();
        NO_INSTANCE_ATTR_GUARD(owner, cache->type_version, cache->index);
        STAT_HIT();
        /* the new reference first: the class holds the attribute, the owner the class */
        SET_TOP(Py_NewRef(PA_CACHED_PTR(cache)));
        DECREF_SYNC(owner);
        SKIP_CACHE(pa_cache_load_attr);
        DISPATCH();
    }

    PURE_TARGET(LOAD_ATTR_NONDESCRIPTOR_NO_DICT) {
        /* a plain class attribute through an instance that has no dict to shadow it: the
         * type's version guards the answer */
        pa_cache_load_attr *cache = (pa_cache_load_attr *)next_instr;
        PyObject *owner = TOP();
        DEOPT_IF(Py_TYPE(owner)->tp_version_tag != cache->type_version);
        STAT_HIT();
        SET_TOP(Py_NewRef(PA_CACHED_PTR(cache)));
        DECREF_SYNC(owner);
        SKIP_CACHE(pa_cache_load_attr);
        DISPATCH();
    }

    /* ================= LOAD_METHOD ================= */

    TARGET(LOAD_METHOD_ADAPTIVE) {
        ADAPTIVE(LOAD_METHOD, pa_specialize_load_method(TOP(), GETITEM(names, oparg), this_instr));
    }

    PURE_TARGET(LOAD_METHOD_WITH_VALUES) {
        pa_cache_load_method *cache = (pa_cache_load_method *)next_instr;
        PyObject *self = TOP();
        NO_INSTANCE_ATTR_GUARD(self, cache->type_version, cache->keys_version);
        STAT_HIT();
        SET_TOP(Py_NewRef(PA_CACHED_PTR(cache)));
        PUSH(self);
        SKIP_CACHE(pa_cache_load_method);
        DISPATCH();
    }

    PURE_TARGET(LOAD_METHOD_WITH_VALUES_MEGA) {
        /* LOAD_METHOD_WITH_VALUES's guards with the type's entry of the shared attribute
         * table for the site's cache: refilled when the type's shared keys changed.  The
         * site keeps the entry it used last (`descr_lo`/`descr_hi`: a pointer into the table,
         * NULL at first), which saves the hash when the next owner's type is the same: an
         * entry is for this site's type and name only while its own fields say so. */
        pa_cache_load_method *cache = (pa_cache_load_method *)next_instr;
        PyObject *self = TOP();
        PyObject *name = GETITEM(names, oparg);
        PyTypeObject *tp = Py_TYPE(self);
        uint32_t tv = tp->tp_version_tag;
        pa_attr_entry *e = PA_MEMO_ENTRY(cache);
        if (e == NULL || e->type_version != tv || e->name != name) {
            e = pa_attr_find(PA_ATTR_METHOD, tv, name);
            if (e != NULL) {
                PA_SET_MEMO_ENTRY(cache, e);
            }
        }
        if (e == NULL || ((PyHeapTypeObject *)tp)->ht_cached_keys->dk_version != e->aux) {
            FILL_ATTR_ENTRY(e, self, name, PA_ATTR_METHOD, cache->keys_version);
            PA_SET_MEMO_ENTRY(cache, e);
        }
        DEOPT_IF(PA_MANAGED_DICT(self) != NULL);
        STAT_HIT();
        SET_TOP(Py_NewRef(e->descr));
        PUSH(self);
        SKIP_CACHE(pa_cache_load_method);
        DISPATCH();
    }

    PURE_TARGET(LOAD_METHOD_NO_DICT) {
        pa_cache_load_method *cache = (pa_cache_load_method *)next_instr;
        PyObject *self = TOP();
        DEOPT_IF(Py_TYPE(self)->tp_version_tag != cache->type_version);
        STAT_HIT();
        SET_TOP(Py_NewRef(PA_CACHED_PTR(cache)));
        PUSH(self);
        SKIP_CACHE(pa_cache_load_method);
        DISPATCH();
    }

    PURE_TARGET(LOAD_METHOD_LAZY_DICT) {
        pa_cache_load_method *cache = (pa_cache_load_method *)next_instr;
        PyObject *self = TOP();
        DEOPT_IF(Py_TYPE(self)->tp_version_tag != cache->type_version);
        /* keys_version holds the dict offset here: no instance dict yet, nothing shadows */
        DEOPT_IF(*(PyObject **)((char *)self + cache->keys_version) != NULL);
        STAT_HIT();
        SET_TOP(Py_NewRef(PA_CACHED_PTR(cache)));
        PUSH(self);
        SKIP_CACHE(pa_cache_load_method);
        DISPATCH();
    }

    PURE_TARGET(LOAD_METHOD_WITH_DICT) {
        /* the instance has a dict (materialized, or at the type's dict offset), whose keys
         * are those the specializer saw without the name: a key added resets their version,
         * another dict or a resized one has other keys */
        pa_cache_load_method *cache = (pa_cache_load_method *)next_instr;
        PyObject *self = TOP();
        PyTypeObject *tp = Py_TYPE(self);
        DEOPT_IF(tp->tp_version_tag != cache->type_version);
        PyDictObject *dict = (tp->tp_flags & Py_TPFLAGS_MANAGED_DICT)
            ? (PyDictObject *)PA_MANAGED_DICT(self)
            : *(PyDictObject **)((char *)self + tp->tp_dictoffset);
        DEOPT_IF(dict == NULL || dict->ma_keys->dk_version != cache->keys_version);
        STAT_HIT();
        SET_TOP(Py_NewRef(PA_CACHED_PTR(cache)));
        PUSH(self);
        SKIP_CACHE(pa_cache_load_method);
        DISPATCH();
    }

    PURE_TARGET(LOAD_METHOD_CLASS) {
        pa_cache_load_method *cache = (pa_cache_load_method *)next_instr;
        PyObject *cls = TOP();
        DEOPT_IF(Py_TYPE(cls) != &PyType_Type);
        DEOPT_IF(((PyTypeObject *)cls)->tp_version_tag != cache->type_version);
        STAT_HIT();
        /* the new reference first: the attribute is borrowed from the class, which the stack
         * may hold the last reference to */
        PyObject *res = Py_NewRef(PA_CACHED_PTR(cache));
        SET_TOP(NULL);
        DECREF_SYNC(cls);
        PUSH(res);
        SKIP_CACHE(pa_cache_load_method);
        DISPATCH();
    }

    PURE_TARGET(LOAD_METHOD_MODULE) {
        /* type_version: the module dict's keys version; keys_version: the entry index */
        pa_cache_load_method *cache = (pa_cache_load_method *)next_instr;
        PyObject *owner = TOP();
        DEOPT_IF(!PyModule_CheckExact(owner));
        PyDictObject *dict = (PyDictObject *)((PyModuleObject *)owner)->md_dict;
        DEOPT_IF(dict->ma_keys->dk_version != cache->type_version);
        PyObject *res = DK_UNICODE_ENTRIES(dict->ma_keys)[cache->keys_version].me_value;
        DEOPT_IF(res == NULL);
        STAT_HIT();
        /* the new reference first: if the stack held the module's last reference, dropping it
         * frees the module's dict and, with it, a value only the dict held */
        Py_INCREF(res);
        SET_TOP(NULL);
        DECREF_SYNC(owner);
        PUSH(res);
        SKIP_CACHE(pa_cache_load_method);
        DISPATCH();
    }

    /* ================= STORE_ATTR ================= */

    TARGET(STORE_ATTR_ADAPTIVE) {
        ADAPTIVE(STORE_ATTR, pa_specialize_store_attr(TOP(), GETITEM(names, oparg), this_instr));
    }

    PURE_TARGET(STORE_ATTR_INSTANCE_VALUE) {
        pa_cache_store_attr *cache = (pa_cache_store_attr *)next_instr;
        PyObject *owner = TOP();
        uint32_t index;
        INSTANCE_VALUE_INDEX(index, owner, cache, cache->version_2, cache->version_3,
                             pa_add_store_attr_type);
        PyDictValues *values = PA_GUARDED_STORE_VALUES(owner);
        DEOPT_IF(values == NULL);
        STAT_HIT();
        STACK_SHRINK(1);
        PyObject *value = POP();
        PyObject *old_value = values->values[index];
        values->values[index] = value;
        if (old_value == NULL) {
            _PyDictValues_AddToInsertionOrder(values, index);
        }
        else {
            DECREF_SYNC(old_value);
        }
        DECREF_SYNC(owner);
        SKIP_CACHE(pa_cache_store_attr);
        DISPATCH();
    }

    TARGET(STORE_ATTR_WITH_HINT) {
        pa_cache_store_attr *cache = (pa_cache_store_attr *)next_instr;
        PyObject *owner = TOP();
        DEOPT_IF(Py_TYPE(owner)->tp_version_tag != cache->type_version);
        PyDictObject *dict = PA_MANAGED_DICT(owner);
        DEOPT_IF(dict == NULL);
        PyObject *name = GETITEM(names, oparg);
        DEOPT_IF(!DK_IS_UNICODE(dict->ma_keys)
                 || cache->index >= (uint32_t)dict->ma_keys->dk_nentries
                 || DK_UNICODE_ENTRIES(dict->ma_keys)[cache->index].me_key != name);
        STAT_HIT();
        STACK_SHRINK(1);
        PyObject *value = POP();
        PyObject **slot = dict->ma_values != NULL
                          ? &dict->ma_values->values[cache->index]
                          : &DK_UNICODE_ENTRIES(dict->ma_keys)[cache->index].me_value;
        PyObject *old_value = *slot;
        if (old_value == NULL || !PA_DICT_STORE_IN_PLACE) {
            /* the key of a split dict without a value here: an insertion, which also
             * moves the dict's insertion order; the dict API does it (and every store, in a
             * version whose dicts must tell watchers) */
            int err = PyDict_SetItem((PyObject *)dict, name, value);
            Py_DECREF(value);
            Py_DECREF(owner);
            if (err < 0) {
                goto error;
            }
            SKIP_CACHE(pa_cache_store_attr);
            DISPATCH();
        }
        /* a replacement in place, as insertdict does it (and 3.11's STORE_ATTR_WITH_HINT):
         * the new value, the dict tracked if the value may need it, a new PEP 509 tag */
        *slot = value;
        if (!_PyObject_GC_IS_TRACKED(dict) && _PyObject_GC_MAY_BE_TRACKED(value)) {
            PyObject_GC_Track(dict);
        }
        PA_DICT_CHANGED(dict);
        Py_DECREF(old_value);
        Py_DECREF(owner);
        SKIP_CACHE(pa_cache_store_attr);
        DISPATCH();
    }

    PURE_TARGET(STORE_ATTR_SLOT) {
        pa_cache_store_attr *cache = (pa_cache_store_attr *)next_instr;
        PyObject *owner = TOP();
        DEOPT_IF(Py_TYPE(owner)->tp_version_tag != cache->type_version);
        STAT_HIT();
        STACK_SHRINK(1);
        PyObject *value = POP();
        PyObject **addr = (PyObject **)((char *)owner + cache->index);
        PyObject *old_value = *addr;
        *addr = value;
        XDECREF_SYNC(old_value);
        DECREF_SYNC(owner);
        SKIP_CACHE(pa_cache_store_attr);
        DISPATCH();
    }

    /* ================= LOAD_GLOBAL ================= */

    TARGET(LOAD_GLOBAL_ADAPTIVE) {
        ADAPTIVE(LOAD_GLOBAL, pa_specialize_load_global(GLOBALS(), BUILTINS(),
                                                        GETITEM(names, oparg >> 1), this_instr));
    }

    PURE_TARGET(LOAD_GLOBAL_MODULE) {
        pa_cache_load_global *cache = (pa_cache_load_global *)next_instr;
        PyObject *globals = GLOBALS();
        DEOPT_IF(!PyDict_CheckExact(globals));
        PyDictKeysObject *keys = ((PyDictObject *)globals)->ma_keys;
        DEOPT_IF(keys->dk_version != cache->module_keys_version);
        PyObject *res = DK_UNICODE_ENTRIES(keys)[cache->index].me_value;
        DEOPT_IF(res == NULL);
        STAT_HIT();
        if (oparg & 1) {
            PUSH(NULL);
        }
        PUSH(Py_NewRef(res));
        SKIP_CACHE(pa_cache_load_global);
        DISPATCH();
    }

    PURE_TARGET(LOAD_GLOBAL_BUILTIN) {
        /* the globals keys version proves the name is still not a global */
        pa_cache_load_global *cache = (pa_cache_load_global *)next_instr;
        PyObject *globals = GLOBALS(), *builtins = BUILTINS();
        DEOPT_IF(!PyDict_CheckExact(globals) || !PyDict_CheckExact(builtins));
        DEOPT_IF(((PyDictObject *)globals)->ma_keys->dk_version != cache->module_keys_version);
        PyDictKeysObject *bkeys = ((PyDictObject *)builtins)->ma_keys;
        DEOPT_IF(bkeys->dk_version != cache->builtin_keys_version);
        PyObject *res = DK_UNICODE_ENTRIES(bkeys)[cache->index].me_value;
        DEOPT_IF(res == NULL);
        STAT_HIT();
        if (oparg & 1) {
            PUSH(NULL);
        }
        PUSH(Py_NewRef(res));
        SKIP_CACHE(pa_cache_load_global);
        DISPATCH();
    }

    /* ================= BINARY_OP ================= */

    TARGET(BINARY_OP_ADAPTIVE) {
        ADAPTIVE(BINARY_OP, pa_specialize_binary_op(SECOND(), TOP(), this_instr, oparg,
                                                    frame->localsplus));
    }

/* CEXPR on two one-digit ints; other exact ints through long_binop_wide (NB: its op) */
#define INT_OP(CEXPR, NB) \
    do { \
        PyObject *right = TOP(), *left = SECOND(); \
        DEOPT_IF(!PyLong_CheckExact(left) || !PyLong_CheckExact(right)); \
        STAT_HIT(); \
        PyObject *res; \
        if ((NB) != NB_LSHIFT && (NB) != NB_RSHIFT \
                && PA_IS_SMALL_INT(left) && PA_IS_SMALL_INT(right)) { \
            long a = PA_SMALL_INT_VALUE(left), b = PA_SMALL_INT_VALUE(right); \
            INT_RESULT(res, CEXPR); \
        } \
        else { \
            SYNC_LASTI(); \
            res = long_binop_wide(left, right, (NB)); \
        } \
        STACK_SHRINK(1); \
        SET_TOP(res); \
        PA_DECREF_INT(left); \
        PA_DECREF_INT(right); \
        if (res == NULL) { \
            goto error; \
        } \
        SKIP_CACHE(pa_cache_binary_op); \
        DISPATCH(); \
    } while (0)

    PURE_TARGET(BINARY_OP_ADD_INT) {
        INT_OP(a + b, NB_ADD);
    }

    PURE_TARGET(BINARY_OP_SUBTRACT_INT) {
        INT_OP(a - b, NB_SUBTRACT);
    }

    PURE_TARGET(BINARY_OP_MULTIPLY_INT) {
        INT_OP(a * b, NB_MULTIPLY);   /* two 30-bit digits: the product fits */
    }

    PURE_TARGET(BINARY_OP_INT_BITWISE) {
        int op = oparg >= NB_INPLACE_ADD ? oparg - NB_INPLACE_ADD : oparg;
        if (op == NB_AND) {
            INT_OP(a & b, NB_AND);
        }
        else if (op == NB_OR) {
            INT_OP(a | b, NB_OR);
        }
        else if (op == NB_XOR) {
            INT_OP(a ^ b, NB_XOR);
        }
        /* shifts always take long_binop_wide, which checks the count (INT_OP skips the
         * one-digit path for them: the expression is never evaluated) */
        else if (op == NB_RSHIFT) {
            INT_OP(((void)a, (void)b, 0L), NB_RSHIFT);
        }
        else {
            INT_OP(((void)a, (void)b, 0L), NB_LSHIFT);
        }
    }

    PURE_TARGET(BINARY_OP_FLOORDIV_MOD_INT) {
        PyObject *right = TOP(), *left = SECOND();
        DEOPT_IF(!PyLong_CheckExact(left) || !PyLong_CheckExact(right));
        int op = oparg >= NB_INPLACE_ADD ? oparg - NB_INPLACE_ADD : oparg;
        long v;
        if (PA_IS_SMALL_INDEX(left) && PA_IS_SMALL_POSITIVE(right)) {
            /* non-negative dividend, positive divisor: C's / and % are Python's // and % */
            long a = PA_SMALL_INT_VALUE(left), b = PA_SMALL_INT_VALUE(right);
            v = op == NB_FLOOR_DIVIDE ? a / b : a % b;
        }
        else {
            DEOPT_IF(!long_floordiv_mod_wide(left, right, op, &v));
        }
        STAT_HIT();
        PyObject *res;
        INT_RESULT(res, v);
        STACK_SHRINK(1);
        SET_TOP(res);
        PA_DECREF_INT(left);
        PA_DECREF_INT(right);
        if (res == NULL) {
            goto error;
        }
        SKIP_CACHE(pa_cache_binary_op);
        DISPATCH();
    }

#define FLOAT_OP(OPERATOR) \
    do { \
        PyObject *right = TOP(), *left = SECOND(); \
        DEOPT_IF(!PyFloat_CheckExact(left) || !PyFloat_CheckExact(right)); \
        STAT_HIT(); \
        double d = PyFloat_AS_DOUBLE(left) OPERATOR PyFloat_AS_DOUBLE(right); \
        STACK_SHRINK(1); \
        PyObject *res; \
        FLOAT_RESULT(res, left, right, d); \
        SET_TOP(res); \
        if (res == NULL) { \
            goto error; \
        } \
        SKIP_CACHE(pa_cache_binary_op); \
        DISPATCH(); \
    } while (0)

    PURE_TARGET(BINARY_OP_ADD_FLOAT) {
        FLOAT_OP(+);
    }

    PURE_TARGET(BINARY_OP_SUBTRACT_FLOAT) {
        FLOAT_OP(-);
    }

    PURE_TARGET(BINARY_OP_MULTIPLY_FLOAT) {
        FLOAT_OP(*);
    }

    PURE_TARGET(BINARY_OP_TRUE_DIVIDE_FLOAT) {
        DEOPT_IF(PyFloat_CheckExact(TOP()) && PyFloat_AS_DOUBLE(TOP()) == 0.0);
        FLOAT_OP(/);
    }

/* An exact float, or an exact int of one digit (|v| < 2**30, exact as a double), as the
 * double float's operators make of it; 0 for anything else. */
#define NUMBER_AS_DOUBLE(O, D) \
    (PyFloat_CheckExact(O) ? ((D) = PyFloat_AS_DOUBLE(O), 1) \
     : PyLong_CheckExact(O) && PA_IS_SMALL_INT(O) ? ((D) = (double)PA_SMALL_INT_VALUE(O), 1) : 0)

    PURE_TARGET(BINARY_OP_NUMERIC) {
        /* int and float mixed at one site: two small ints as the int forms do them, else
         * both as doubles -- what float's operators (and int / int) do with a one-digit int */
        PyObject *right = TOP(), *left = SECOND();
        int op = oparg >= NB_INPLACE_ADD ? oparg - NB_INPLACE_ADD : oparg;
        PyObject *res;
        if (op != NB_TRUE_DIVIDE && PyLong_CheckExact(left) && PyLong_CheckExact(right)
                && PA_IS_SMALL_INT(left) && PA_IS_SMALL_INT(right)) {
            long a = PA_SMALL_INT_VALUE(left), b = PA_SMALL_INT_VALUE(right);
            STAT_HIT();
            INT_RESULT(res, op == NB_ADD ? a + b : op == NB_SUBTRACT ? a - b : a * b);
            Py_DECREF(left);
            Py_DECREF(right);
        }
        else {
            double a, b;
            DEOPT_IF(!NUMBER_AS_DOUBLE(left, a) || !NUMBER_AS_DOUBLE(right, b));
            DEOPT_IF(op == NB_TRUE_DIVIDE && b == 0.0);    /* ZeroDivisionError: generic */
            STAT_HIT();
            double d = op == NB_ADD ? a + b : op == NB_SUBTRACT ? a - b
                       : op == NB_MULTIPLY ? a * b : a / b;
            if (Py_REFCNT(left) == 1 && PyFloat_CheckExact(left)) {
                ((PyFloatObject *)left)->ob_fval = d;
                Py_DECREF(right);
                res = left;
            }
            else if (Py_REFCNT(right) == 1 && PyFloat_CheckExact(right)) {
                ((PyFloatObject *)right)->ob_fval = d;
                Py_DECREF(left);
                res = right;
            }
            else {
                Py_DECREF(left);
                Py_DECREF(right);
                SYNC_LASTI();
                res = PyFloat_FromDouble(d);
            }
        }
        STACK_SHRINK(1);
        SET_TOP(res);
        if (res == NULL) {
            goto error;
        }
        SKIP_CACHE(pa_cache_binary_op);
        DISPATCH();
    }

    TARGET(BINARY_OP_ADD_UNICODE) {
        PyObject *right = TOP(), *left = SECOND();
        DEOPT_IF(!PyUnicode_CheckExact(left) || !PyUnicode_CheckExact(right));
        STAT_HIT();
        PyObject *res = PyUnicode_Concat(left, right);
        STACK_SHRINK(1);
        SET_TOP(res);
        Py_DECREF(left);
        Py_DECREF(right);
        if (res == NULL) {
            goto error;
        }
        SKIP_CACHE(pa_cache_binary_op);
        DISPATCH();
    }

    TARGET(BINARY_OP_INPLACE_ADD_UNICODE) {
        /* `s = s + t` / `s += t` where the next instruction stores into s: with the local
         * and the stack holding the only references, PyUnicode_Append extends s in place. */
        PyObject *right = TOP(), *left = SECOND();
        DEOPT_IF(!PyUnicode_CheckExact(left) || !PyUnicode_CheckExact(right));
        uint32_t store = next_instr[PA_CACHE_UNITS(pa_cache_binary_op)];
        PyObject **target_local = &GETLOCAL(PA_OPARG(store));
        DEOPT_IF(*target_local != left);
        STAT_HIT();
        STACK_SHRINK(2);
        Py_DECREF(left);
        PyUnicode_Append(target_local, right);
        Py_DECREF(right);
        if (*target_local == NULL) {
            goto error;
        }
        /* the STORE_FAST is done: skip its word (a superinstruction's second half stays) */
        next_instr += PA_CACHE_UNITS(pa_cache_binary_op) + 1;
        DISPATCH();
    }

    /* ================= COMPARE_OP ================= */

    TARGET(COMPARE_OP_ADAPTIVE) {
        ADAPTIVE(COMPARE_OP, pa_specialize_compare_op(SECOND(), TOP(), this_instr, oparg));
    }

#define COMPARE_PUSH(RES) \
    do { \
        STACK_SHRINK(1); \
        Py_DECREF(left); \
        Py_DECREF(right); \
        SET_TOP(Py_NewRef((RES) ? Py_True : Py_False)); \
        SKIP_CACHE(pa_cache_compare_op); \
        DISPATCH(); \
    } while (0)

/* Fused with the POP_JUMP_IF_TRUE/FALSE that follows: take the branch directly. */
#define COMPARE_JUMP(RES) \
    do { \
        STACK_SHRINK(2); \
        Py_DECREF(left); \
        Py_DECREF(right); \
        SKIP_CACHE(pa_cache_compare_op); \
        uint32_t jump_word = *next_instr++; \
        if ((PA_OPCODE(jump_word) == PA_POP_JUMP_IF_TRUE) == ((RES) != 0)) { \
            JUMP_CHECKED((int)PA_OPARG(jump_word)); \
        } \
        DISPATCH(); \
    } while (0)

#define INT_COMPARE_OPERANDS() \
    PyObject *right = TOP(), *left = SECOND(); \
    DEOPT_IF(!PyLong_CheckExact(left) || !PyLong_CheckExact(right)); \
    DEOPT_IF(!PA_IS_SMALL_INT(left) || !PA_IS_SMALL_INT(right)); \
    STAT_HIT(); \
    int res = compare_longs(PA_SMALL_INT_VALUE(left), PA_SMALL_INT_VALUE(right), oparg)

#define FLOAT_COMPARE_OPERANDS() \
    PyObject *right = TOP(), *left = SECOND(); \
    DEOPT_IF(!PyFloat_CheckExact(left) || !PyFloat_CheckExact(right)); \
    STAT_HIT(); \
    int res = compare_doubles(PyFloat_AS_DOUBLE(left), PyFloat_AS_DOUBLE(right), oparg)

#define STR_COMPARE_OPERANDS() \
    PyObject *right = TOP(), *left = SECOND(); \
    DEOPT_IF(!PyUnicode_CheckExact(left) || !PyUnicode_CheckExact(right)); \
    STAT_HIT(); \
    int res = _PyUnicode_Equal(left, right) == (oparg == Py_EQ)

#define NUMERIC_COMPARE_OPERANDS() \
    PyObject *right = TOP(), *left = SECOND(); \
    double a_, b_; \
    DEOPT_IF(!NUMBER_AS_DOUBLE(left, a_) || !NUMBER_AS_DOUBLE(right, b_)); \
    STAT_HIT(); \
    int res = compare_doubles(a_, b_, oparg)

    PURE_TARGET(COMPARE_OP_INT) {
        INT_COMPARE_OPERANDS();
        COMPARE_PUSH(res);
    }

    PURE_TARGET(COMPARE_OP_FLOAT) {
        FLOAT_COMPARE_OPERANDS();
        COMPARE_PUSH(res);
    }

    PURE_TARGET(COMPARE_OP_STR) {
        STR_COMPARE_OPERANDS();
        COMPARE_PUSH(res);
    }

    PURE_TARGET(COMPARE_OP_INT_JUMP) {
        INT_COMPARE_OPERANDS();
        COMPARE_JUMP(res);
    }

    PURE_TARGET(COMPARE_OP_FLOAT_JUMP) {
        FLOAT_COMPARE_OPERANDS();
        COMPARE_JUMP(res);
    }

    PURE_TARGET(COMPARE_OP_STR_JUMP) {
        STR_COMPARE_OPERANDS();
        COMPARE_JUMP(res);
    }

    PURE_TARGET(COMPARE_OP_NUMERIC) {
        /* int and float mixed: float_richcompare compares a one-digit int as a double
         * (NaN and infinities included) */
        NUMERIC_COMPARE_OPERANDS();
        COMPARE_PUSH(res);
    }

    PURE_TARGET(COMPARE_OP_NUMERIC_JUMP) {
        NUMERIC_COMPARE_OPERANDS();
        COMPARE_JUMP(res);
    }

    /* ================= BINARY_SUBSCR / STORE_SUBSCR ================= */

    TARGET(BINARY_SUBSCR_ADAPTIVE) {
        ADAPTIVE(BINARY_SUBSCR, pa_specialize_binary_subscr(SECOND(), TOP(), this_instr));
    }

    PURE_TARGET(BINARY_SUBSCR_LIST_INT) {
        PyObject *sub = TOP(), *list = SECOND();
        DEOPT_IF(!PyLong_CheckExact(sub) || !PyList_CheckExact(list));
        DEOPT_IF(!PA_IS_SMALL_INDEX(sub));
        Py_ssize_t index = PA_SMALL_INDEX_VALUE(sub);
        DEOPT_IF(index >= PyList_GET_SIZE(list));
        STAT_HIT();
        PyObject *res = Py_NewRef(PyList_GET_ITEM(list, index));
        STACK_SHRINK(1);
        SET_TOP(res);
        PA_DECREF_INT(sub);
        DECREF_SYNC(list);
        SKIP_CACHE(pa_cache_binary_subscr);
        DISPATCH();
    }

    PURE_TARGET(BINARY_SUBSCR_TUPLE_INT) {
        PyObject *sub = TOP(), *tuple = SECOND();
        DEOPT_IF(!PyLong_CheckExact(sub) || !PyTuple_CheckExact(tuple));
        DEOPT_IF(!PA_IS_SMALL_INDEX(sub));
        Py_ssize_t index = PA_SMALL_INDEX_VALUE(sub);
        DEOPT_IF(index >= PyTuple_GET_SIZE(tuple));
        STAT_HIT();
        PyObject *res = Py_NewRef(PyTuple_GET_ITEM(tuple, index));
        STACK_SHRINK(1);
        SET_TOP(res);
        PA_DECREF_INT(sub);
        DECREF_SYNC(tuple);
        SKIP_CACHE(pa_cache_binary_subscr);
        DISPATCH();
    }

    TARGET(BINARY_SUBSCR_DICT) {
        PyObject *sub = TOP(), *dict = SECOND();
        DEOPT_IF(!PyDict_CheckExact(dict));
        STAT_HIT();
        PyObject *res = PyDict_GetItemWithError(dict, sub);
        if (res == NULL) {
            if (!_PyErr_Occurred(tstate)) {
                _PyErr_SetKeyError(sub);
            }
            goto error;
        }
        Py_INCREF(res);
        STACK_SHRINK(1);
        SET_TOP(res);
        Py_DECREF(sub);
        Py_DECREF(dict);
        SKIP_CACHE(pa_cache_binary_subscr);
        DISPATCH();
    }

    TARGET(BINARY_SUBSCR_GETITEM) {
        pa_cache_binary_subscr *cache = (pa_cache_binary_subscr *)next_instr;
        PyObject *container = SECOND();
        PyTypeObject *tp = Py_TYPE(container);
        DEOPT_IF(INLINE_REFUSED());
        DEOPT_IF(tp->tp_version_tag != cache->type_version);
        PyFunctionObject *getitem = (PyFunctionObject *)((PyHeapTypeObject *)tp)->_spec_cache.getitem;
        DEOPT_IF(getitem == NULL || !PyFunction_Check(getitem)
                 || getitem->func_version != cache->func_version);
        STAT_HIT();
        STACK_SHRINK(2);
        Py_INCREF(getitem);
        _PyInterpreterFrame *new_frame = push_frame_with_args(tstate, getitem, stack_pointer, 2);
        if (new_frame == NULL) {
            goto error;
        }
        SKIP_CACHE(pa_cache_binary_subscr);
        ENTER_INLINE_FRAME(new_frame, PA_CPY_BINARY_SUBSCR_LAST_CACHE);
    }

    PURE_TARGET(BINARY_SUBSCR_STR_INT) {
        /* A one-byte (latin-1) str and an exact int index within its bounds: the character's
         * cached one-character str, as str's subscript gives.  A wider str, a negative, big
         * or out-of-range index (IndexError), subclasses: the generic path. */
        PyObject *sub = TOP(), *str = SECOND();
        DEOPT_IF(!PyLong_CheckExact(sub) || !PyUnicode_CheckExact(str));
        DEOPT_IF(!PA_IS_SMALL_INDEX(sub));
        DEOPT_IF(PyUnicode_KIND(str) != PyUnicode_1BYTE_KIND);
        Py_ssize_t index = PA_SMALL_INDEX_VALUE(sub);
        DEOPT_IF(index >= PyUnicode_GET_LENGTH(str));
        STAT_HIT();
        Py_UCS1 c = PyUnicode_1BYTE_DATA(str)[index];
        STACK_SHRINK(1);
        SET_TOP(Py_NewRef(PA_LATIN1_CHAR(c)));
        PA_DECREF_INT(sub);
        DECREF_SYNC(str);
        SKIP_CACHE(pa_cache_binary_subscr);
        DISPATCH();
    }

/* An array.array (the version no other type has) and an exact int index within its bounds:
 * what array_subscr and array_ass_item do once they have checked the index.  Any other index
 * (negative, big, an __index__ object, a slice) and IndexError take the generic path. */
#define ARRAY_INDEX_OPERANDS(CACHE_T, CONTAINER, SUB) \
    DEOPT_IF(Py_TYPE(CONTAINER)->tp_version_tag != ((CACHE_T *)next_instr)->type_version); \
    DEOPT_IF(!PyLong_CheckExact(SUB) || !PA_IS_SMALL_INDEX(SUB)); \
    pa_array *array = (pa_array *)(CONTAINER); \
    Py_ssize_t index = PA_SMALL_INDEX_VALUE(SUB); \
    DEOPT_IF(index >= Py_SIZE(array))

    TARGET(BINARY_SUBSCR_ARRAY_INT) {
        PyObject *sub = TOP(), *container = SECOND();
        ARRAY_INDEX_OPERANDS(pa_cache_binary_subscr, container, sub);
        STAT_HIT();
        PyObject *res = array->ob_descr->typecode == 'd'
                        ? PyFloat_FromDouble(((double *)array->ob_item)[index])
                        : array->ob_descr->getitem(array, index);
        STACK_SHRINK(1);
        SET_TOP(res);
        Py_DECREF(container);
        Py_DECREF(sub);
        if (res == NULL) {
            goto error;
        }
        SKIP_CACHE(pa_cache_binary_subscr);
        DISPATCH();
    }

    TARGET(STORE_SUBSCR_ADAPTIVE) {
        ADAPTIVE(STORE_SUBSCR, pa_specialize_store_subscr(SECOND(), TOP(), this_instr));
    }

    PURE_TARGET(STORE_SUBSCR_LIST_INT) {
        PyObject *sub = TOP(), *list = SECOND(), *value = THIRD();
        DEOPT_IF(!PyLong_CheckExact(sub) || !PyList_CheckExact(list));
        DEOPT_IF(!PA_IS_SMALL_INDEX(sub));
        Py_ssize_t index = PA_SMALL_INDEX_VALUE(sub);
        DEOPT_IF(index >= PyList_GET_SIZE(list));
        STAT_HIT();
        PyObject *old_value = PyList_GET_ITEM(list, index);
        PyList_SET_ITEM(list, index, value);
        STACK_SHRINK(3);
        DECREF_SYNC(old_value);
        PA_DECREF_INT(sub);
        DECREF_SYNC(list);
        SKIP_CACHE(pa_cache_store_subscr);
        DISPATCH();
    }

    TARGET(STORE_SUBSCR_DICT) {
        PyObject *sub = TOP(), *dict = SECOND(), *value = THIRD();
        DEOPT_IF(!PyDict_CheckExact(dict));
        STAT_HIT();
        STACK_SHRINK(3);
        int err = PyDict_SetItem(dict, sub, value);
        Py_DECREF(value);
        Py_DECREF(sub);
        Py_DECREF(dict);
        if (err != 0) {
            goto error;
        }
        SKIP_CACHE(pa_cache_store_subscr);
        DISPATCH();
    }

    TARGET(STORE_SUBSCR_ARRAY_INT) {
        PyObject *sub = TOP(), *container = SECOND(), *value = THIRD();
        ARRAY_INDEX_OPERANDS(pa_cache_store_subscr, container, sub);
        STAT_HIT();
        int err = 0;
        if (array->ob_descr->typecode == 'd' && PyFloat_CheckExact(value)) {
            /* what d_setitem's PyArg_Parse("d") makes of an exact float */
            ((double *)array->ob_item)[index] = PyFloat_AS_DOUBLE(value);
        }
        else {
            err = array->ob_descr->setitem(array, index, value);   /* its TypeError, __index__ */
        }
        STACK_SHRINK(3);
        Py_DECREF(value);
        Py_DECREF(container);
        Py_DECREF(sub);
        if (err != 0) {
            goto error;
        }
        SKIP_CACHE(pa_cache_store_subscr);
        DISPATCH();
    }

    /* ================= UNPACK_SEQUENCE ================= */

    TARGET(UNPACK_SEQUENCE_ADAPTIVE) {
        ADAPTIVE(UNPACK_SEQUENCE, pa_specialize_unpack_sequence(TOP(), this_instr, oparg));
    }

    PURE_TARGET(UNPACK_SEQUENCE_TWO_TUPLE) {
        PyObject *seq = TOP();
        DEOPT_IF(!PyTuple_CheckExact(seq) || PyTuple_GET_SIZE(seq) != 2);
        STAT_HIT();
        SET_TOP(Py_NewRef(PyTuple_GET_ITEM(seq, 1)));
        PUSH(Py_NewRef(PyTuple_GET_ITEM(seq, 0)));
        DECREF_SYNC(seq);
        SKIP_CACHE(pa_cache_unpack_sequence);
        DISPATCH();
    }

    PURE_TARGET(UNPACK_SEQUENCE_TUPLE) {
        PyObject *seq = TOP();
        DEOPT_IF(!PyTuple_CheckExact(seq) || PyTuple_GET_SIZE(seq) != oparg);
        STAT_HIT();
        STACK_SHRINK(1);
        PyObject **items = _PyTuple_ITEMS(seq);
        for (int i = oparg; --i >= 0; ) {
            PUSH(Py_NewRef(items[i]));
        }
        DECREF_SYNC(seq);
        SKIP_CACHE(pa_cache_unpack_sequence);
        DISPATCH();
    }

    PURE_TARGET(UNPACK_SEQUENCE_LIST) {
        PyObject *seq = TOP();
        DEOPT_IF(!PyList_CheckExact(seq) || PyList_GET_SIZE(seq) != oparg);
        STAT_HIT();
        STACK_SHRINK(1);
        PyObject **items = _PyList_ITEMS(seq);
        for (int i = oparg; --i >= 0; ) {
            PUSH(Py_NewRef(items[i]));
        }
        DECREF_SYNC(seq);
        SKIP_CACHE(pa_cache_unpack_sequence);
        DISPATCH();
    }

    /* ================= CONTAINS_OP ================= */

    TARGET(CONTAINS_OP_ADAPTIVE) {
        ADAPTIVE(CONTAINS_OP, pa_specialize_contains_op(SECOND(), TOP(), this_instr));
    }

    /* The key's __hash__ and __eq__ may run Python code (SYNC_LASTI: TARGET), raise or change
     * the container; the container's own lookup copes, as it does under PySequence_Contains. */
    TARGET(CONTAINS_OP_DICT) {
        PyObject *right = TOP(), *left = SECOND();
        DEOPT_IF(!PyDict_CheckExact(right));
        STAT_HIT();
        STACK_SHRINK(2);
        int res = PyDict_Contains(right, left);
        CONTAINS_RESULT(res, left, right);
    }

    /* set's and frozenset's sq_contains (not PySet_Contains): an unhashable set key is looked
     * up as a frozenset, as `in` does */
    TARGET(CONTAINS_OP_SET) {
        PyObject *right = TOP(), *left = SECOND();
        DEOPT_IF(!PyAnySet_CheckExact(right));
        STAT_HIT();
        STACK_SHRINK(2);
        int res = Py_TYPE(right)->tp_as_sequence->sq_contains(right, left);
        CONTAINS_RESULT(res, left, right);
    }

    /* ================= TO_BOOL (3.13's truth tests) ================= */

    TARGET(TO_BOOL_ADAPTIVE) {
        ADAPTIVE(TO_BOOL, pa_specialize_to_bool(TOP(), this_instr));
    }

/* The end of a TO_BOOL form: the value on the stack replaced by its truth, the value released
 * with RELEASE (a decref that may run Python code must write the frame's last instruction:
 * DECREF_SYNC). */
#define TO_BOOL_REPLACE(TRUTH, RELEASE) \
    do { \
        SET_TOP(Py_NewRef((TRUTH) ? Py_True : Py_False)); \
        RELEASE(value); \
        SKIP_CACHE(pa_cache_to_bool); \
        DISPATCH(); \
    } while (0)

/* The same, fused with the POP_JUMP_IF_TRUE/FALSE that follows: the value popped and released,
 * the branch taken directly (no bool pushed). */
#define TO_BOOL_JUMP(TRUTH, RELEASE) \
    do { \
        int truth_ = (TRUTH); \
        STACK_SHRINK(1); \
        RELEASE(value); \
        SKIP_CACHE(pa_cache_to_bool); \
        uint32_t jump_word = *next_instr++; \
        if ((PA_OPCODE(jump_word) == PA_POP_JUMP_IF_TRUE) == truth_) { \
            JUMP_CHECKED((int)PA_OPARG(jump_word)); \
        } \
        DISPATCH(); \
    } while (0)

/* Each form's guard and truth, then END: TO_BOOL_REPLACE or TO_BOOL_JUMP.  A bool is its own
 * truth; None is never freed (its release needs no care); an exact int or str frees no Python
 * object; a list freed here frees its items, and an instance its own self, whose finalizers
 * may run (DECREF_SYNC).  TO_BOOL_ALWAYS_TRUE: the class's version says that neither it nor a
 * base has __bool__ or __len__ (the specializer checked). */
#define TO_BOOL_BOOL_BODY(END) \
    PyObject *value = TOP(); \
    DEOPT_IF(!PyBool_Check(value)); \
    STAT_HIT(); \
    END(Py_IsTrue(value), Py_DECREF)
#define TO_BOOL_INT_BODY(END) \
    PyObject *value = TOP(); \
    DEOPT_IF(!PyLong_CheckExact(value)); \
    STAT_HIT(); \
    END(!PA_LONG_IS_ZERO(value), PA_DECREF_INT)
#define TO_BOOL_LIST_BODY(END) \
    PyObject *value = TOP(); \
    DEOPT_IF(!PyList_CheckExact(value)); \
    STAT_HIT(); \
    END(PyList_GET_SIZE(value) != 0, DECREF_SYNC)
#define TO_BOOL_NONE_BODY(END) \
    PyObject *value = TOP(); \
    DEOPT_IF(!Py_IsNone(value)); \
    STAT_HIT(); \
    END(0, Py_DECREF)
#define TO_BOOL_STR_BODY(END) \
    PyObject *value = TOP(); \
    DEOPT_IF(!PyUnicode_CheckExact(value)); \
    STAT_HIT(); \
    END(PyUnicode_GET_LENGTH(value) != 0, Py_DECREF)
#define TO_BOOL_ALWAYS_TRUE_BODY(END) \
    PyObject *value = TOP(); \
    DEOPT_IF(Py_TYPE(value)->tp_version_tag \
             != ((pa_cache_to_bool *)next_instr)->type_version); \
    STAT_HIT(); \
    END(1, DECREF_SYNC)

    /* a bool left in place: nothing to replace */
    PURE_TARGET(TO_BOOL_BOOL) {
        DEOPT_IF(!PyBool_Check(TOP()));
        STAT_HIT();
        SKIP_CACHE(pa_cache_to_bool);
        DISPATCH();
    }

    PURE_TARGET(TO_BOOL_INT) { TO_BOOL_INT_BODY(TO_BOOL_REPLACE); }
    PURE_TARGET(TO_BOOL_LIST) { TO_BOOL_LIST_BODY(TO_BOOL_REPLACE); }
    PURE_TARGET(TO_BOOL_NONE) { TO_BOOL_NONE_BODY(TO_BOOL_REPLACE); }
    PURE_TARGET(TO_BOOL_STR) { TO_BOOL_STR_BODY(TO_BOOL_REPLACE); }
    PURE_TARGET(TO_BOOL_ALWAYS_TRUE) { TO_BOOL_ALWAYS_TRUE_BODY(TO_BOOL_REPLACE); }
    PURE_TARGET(TO_BOOL_BOOL_JUMP) { TO_BOOL_BOOL_BODY(TO_BOOL_JUMP); }
    PURE_TARGET(TO_BOOL_INT_JUMP) { TO_BOOL_INT_BODY(TO_BOOL_JUMP); }
    PURE_TARGET(TO_BOOL_LIST_JUMP) { TO_BOOL_LIST_BODY(TO_BOOL_JUMP); }
    PURE_TARGET(TO_BOOL_NONE_JUMP) { TO_BOOL_NONE_BODY(TO_BOOL_JUMP); }
    PURE_TARGET(TO_BOOL_STR_JUMP) { TO_BOOL_STR_BODY(TO_BOOL_JUMP); }
    PURE_TARGET(TO_BOOL_ALWAYS_TRUE_JUMP) { TO_BOOL_ALWAYS_TRUE_BODY(TO_BOOL_JUMP); }

    /* ================= CALL ================= */

    TARGET(CALL_ADAPTIVE) {
        ADAPTIVE(CALL, {
            CALL_PROLOGUE();
            (void)args;
            pa_specialize_call(function, this_instr, total_args, kwnames, is_meth);
        });
    }

/* After a call that returned `res` (NULL on error): drop the callable and arguments. */
#define CALL_EPILOGUE(res) \
    do { \
        kwnames = NULL; \
        CALL_RELEASE_AND_PUSH(total_args, res); \
        CHECK_EVAL_BREAKER(); \
        DISPATCH(); \
    } while (0)
/* The callable and `n` arguments released, `res` in their place (NULL: the error), past the
 * caches; a tracer the call started takes the frame over. */
#define CALL_RELEASE_AND_PUSH(n, res) \
    do { \
        Py_DECREF(function); \
        for (int i_ = 0; i_ < (n); i_++) { \
            Py_DECREF(args[i_]); \
        } \
        stack_pointer = base; \
        PUSH(res); \
        if ((res) == NULL) { \
            goto error; \
        } \
        SKIP_CACHE(pa_cache_call); \
        HANDOVER_IF_TRACING(PA_CPY_CALL_LAST_CACHE); \
    } while (0)

    TARGET(CALL_PY_EXACT_ARGS) {
        pa_cache_call *cache = (pa_cache_call *)next_instr;
        CALL_PROLOGUE();
        DEOPT_IF(kwnames != NULL || INLINE_REFUSED_UNCOUNTED());
        DEOPT_IF(Py_TYPE(function) != &PyFunction_Type);
        PyFunctionObject *func = (PyFunctionObject *)function;
        /* one of up to four functions (pa_caches.h); another takes a free slot if the
         * specializer would have chosen this form for it */
        uint32_t fv = func->func_version;
        if (fv != cache->func_version && fv != cache->min_args && fv != cache->init_lo
                && fv != cache->init_hi) {
            DEOPT_IF(!pa_add_call_py_function(function, this_instr, total_args));
        }
        PyCodeObject *code = (PyCodeObject *)func->func_code;
        DEOPT_IF(code->co_argcount != total_args);
        STAT_HIT();
        stack_pointer = base;
        _PyInterpreterFrame *new_frame = push_frame_with_args(tstate, func, args, total_args);
        if (new_frame == NULL) {
            goto error;
        }
        SKIP_CACHE(pa_cache_call);
        ENTER_INLINE_FRAME(new_frame, PA_CPY_CALL_LAST_CACHE);
    }

    TARGET(CALL_PY_WITH_DEFAULTS) {
        pa_cache_call *cache = (pa_cache_call *)next_instr;
        CALL_PROLOGUE();
        DEOPT_IF(kwnames != NULL || INLINE_REFUSED_UNCOUNTED());
        DEOPT_IF(Py_TYPE(function) != &PyFunction_Type);
        PyFunctionObject *func = (PyFunctionObject *)function;
        /* one of up to three functions, all with min_args required parameters (pa_caches.h);
         * another takes a free slot if the specializer would have chosen this form for it
         * with the same minimum */
        uint32_t fv = func->func_version;
        if (fv != cache->func_version && fv != cache->init_lo && fv != cache->init_hi) {
            DEOPT_IF(!pa_add_call_py_function(function, this_instr, total_args));
        }
        PyCodeObject *code = (PyCodeObject *)func->func_code;
        DEOPT_IF(total_args > code->co_argcount || total_args < (int)cache->min_args);
        STAT_HIT();
        stack_pointer = base;
        _PyInterpreterFrame *new_frame = push_frame_with_args(tstate, func, args, total_args);
        if (new_frame == NULL) {
            goto error;
        }
        for (int i = total_args; i < code->co_argcount; i++) {
            PyObject *def = PyTuple_GET_ITEM(func->func_defaults, i - (int)cache->min_args);
            new_frame->localsplus[i] = Py_NewRef(def);
        }
        SKIP_CACHE(pa_cache_call);
        ENTER_INLINE_FRAME(new_frame, PA_CPY_CALL_LAST_CACHE);
    }

    /* A Python function taking *args, **kwargs or keyword-only parameters (logging's
     * `debug(self, msg, *args, **kwargs)`, `sorted`-like `f(x, *, key=None)`), called with
     * positional arguments only: min_args..init_lo of them (its required positional
     * parameters up to co_argcount, or any number more with *args), which the function's
     * version guards; push_frame_general binds them. */
    TARGET(CALL_PY_VARARGS) {
        pa_cache_call *cache = (pa_cache_call *)next_instr;
        CALL_PROLOGUE();
        DEOPT_IF(kwnames != NULL || INLINE_REFUSED_UNCOUNTED());
        DEOPT_IF(Py_TYPE(function) != &PyFunction_Type);
        DEOPT_IF(((PyFunctionObject *)function)->func_version != cache->func_version);
        DEOPT_IF((uint32_t)total_args < cache->min_args || (uint32_t)total_args > cache->init_lo);
        STAT_HIT();
        stack_pointer = base;
        _PyInterpreterFrame *new_frame = push_frame_general(
            tstate, (PyFunctionObject *)function, args, total_args);
        if (new_frame == NULL) {
            goto error;
        }
        SKIP_CACHE(pa_cache_call);
        ENTER_INLINE_FRAME(new_frame, PA_CPY_CALL_LAST_CACHE);
    }

    TARGET(CALL_PY_CLASS) {
        /* cls(args) for a Python class with object.__new__ and a Python __init__: the
         * object is made here and __init__ runs in an inline frame.  Natively this call
         * goes through C (type.__call__), and the inline form keeps what that shows: the
         * call costs one level of the recursion limit besides __init__'s frame (with the
         * message of a C call), held until __init__'s frame ends, and the caller shows
         * f_lasti at the CALL itself.  The caller keeps the new object on its stack; a
         * frame suspended at the start of a CALL is how the return path knows to check
         * __init__'s result and push the object (see return_to_caller). */
        pa_cache_call *cache = (pa_cache_call *)next_instr;
        CALL_PROLOGUE();
        DEOPT_IF(is_meth || kwnames != NULL || !PyType_Check(function));
        DEOPT_IF(INLINE_REFUSED());
        PyTypeObject *tp = (PyTypeObject *)function;
        DEOPT_IF(tp->tp_version_tag != cache->func_version);
        PyFunctionObject *init = pa_read_ptr(cache->init_lo, cache->init_hi);
        DEOPT_IF(init->func_version != cache->min_args);
        PyCodeObject *init_code = (PyCodeObject *)init->func_code;
        DEOPT_IF(init_code->co_argcount != total_args + 1);
        GENERIC_THIS_TIME_IF(!PA_CLASS_CALL_FITS(tstate, init_code));
        STAT_HIT();
        if (pa_class_call_enter(tstate)) {
            CALL_EPILOGUE(NULL);
        }
        /* The allocation can run Python code: a finalizer, called by the collector the
         * allocation starts.  That code can replace __init__ and free the one checked above,
         * so hold it, and check the class again once the object exists. */
        Py_INCREF(init);
        PyObject *self = PA_NEW_PLAIN_INSTANCE(tp);
        if (self == NULL) {
            pa_class_call_leave_early(tstate);
            Py_DECREF(init);
            CALL_EPILOGUE(self);
        }
        if (tp->tp_version_tag != cache->func_version) {
            /* the class changed under the allocation: finish as type_call does after
             * tp_new, with the __init__ the class has now */
            Py_DECREF(init);
            PyObject *res = init_after_new(self, args, total_args);
            pa_class_call_leave_early(tstate);   /* type.__call__'s level, taken above */
            CALL_EPILOGUE(res);
        }
        if (pa_class_call_enter_init(tstate)) {
            /* natively __init__ enters CPython's loop through C, which takes C levels (3.12),
             * and RecursionError is raised there, after the allocation */
            pa_class_call_leave(tstate);
            Py_DECREF(init);
            Py_DECREF(self);
            CALL_EPILOGUE(NULL);
        }
        /* stack: NULL, cls, args...  ->  self | frame args: self, args... */
        base[0] = self;
        base[1] = Py_NewRef(self);
        Py_DECREF(tp);
        stack_pointer = base + 1;
        _PyInterpreterFrame *new_frame = push_frame_with_args(tstate, init, base + 1,
                                                              total_args + 1);
        if (new_frame == NULL) {
            pa_class_call_leave(tstate);
            goto error;
        }
        SKIP_CACHE(pa_cache_call);
        ENTER_INLINE_FRAME(new_frame, 0);
    }

    TARGET(CALL_TYPE_1) {
        /* type(x) runs no code of its own: none of the call's general prologue and epilogue
         * (a bound method's unpacking, the argument loop, the tracing and eval-breaker checks,
         * which CPython's form has neither).  Stack: NULL, type, x -> type(x). */
        PyObject **base = stack_pointer - 3;
        DEOPT_IF(oparg != 1 || kwnames != NULL || base[0] != NULL
                 || base[1] != (PyObject *)&PyType_Type);
        STAT_HIT();
        PyObject *arg = base[2];
        stack_pointer = base;
        PUSH(Py_NewRef(Py_TYPE(arg)));
        Py_DECREF(&PyType_Type);
        Py_DECREF(arg);
        SKIP_CACHE(pa_cache_call);
        DISPATCH();
    }

    TARGET(CALL_STR_1) {
        CALL_PROLOGUE();
        DEOPT_IF(kwnames != NULL || total_args != 1 || function != (PyObject *)&PyUnicode_Type);
        STAT_HIT();
        PyObject *res = PyObject_Str(args[0]);
        CALL_EPILOGUE(res);
    }

    TARGET(CALL_TUPLE_1) {
        CALL_PROLOGUE();
        DEOPT_IF(kwnames != NULL || total_args != 1 || function != (PyObject *)&PyTuple_Type);
        STAT_HIT();
        PyObject *res = PySequence_Tuple(args[0]);
        CALL_EPILOGUE(res);
    }

/* The forms for len(x), isinstance(x, c) and list.append(x), of one shape each, as
 * CPython's: the builtin at base[1] under a NULL (len, isinstance), or the method descriptor
 * at base[0] with its list at base[1] (append); anything else, a bound method included,
 * fails the guard and the generic CALL takes it.  No eval-breaker check after them (neither
 * CPython's forms nor its 3.11 PRECALLs have one; a loop's backward jump checks). */
#define CALL_SHAPED_PROLOGUE(N, IS_METH) \
    PyObject **base = stack_pointer - (N) - 2 + (IS_METH); \
    DEOPT_IF(oparg != (N) - (IS_METH) || kwnames != NULL || (base[0] == NULL) == (IS_METH)); \
    PyObject *function = base[1 - (IS_METH)]; \
    PyObject **args = base + 2 - (IS_METH)
#define CALL_SHAPED_EPILOGUE(N, res) \
    do { \
        CALL_RELEASE_AND_PUSH((N), res); \
        DISPATCH(); \
    } while (0)

    TARGET(CALL_LEN) {
        CALL_SHAPED_PROLOGUE(1, 0);
        DEOPT_IF(function != tstate->interp->callable_cache.len);
        STAT_HIT();
        Py_ssize_t len = PyObject_Length(args[0]);
        PyObject *res = len < 0 ? NULL : PyLong_FromSsize_t(len);
        CALL_SHAPED_EPILOGUE(1, res);
    }

    TARGET(CALL_ISINSTANCE) {
        CALL_SHAPED_PROLOGUE(2, 0);
        DEOPT_IF(function != tstate->interp->callable_cache.isinstance);
        STAT_HIT();
        int r = PyObject_IsInstance(args[0], args[1]);
        PyObject *res = r < 0 ? NULL : Py_NewRef(r ? Py_True : Py_False);
        CALL_SHAPED_EPILOGUE(2, res);
    }

    TARGET(CALL_LIST_APPEND) {
        CALL_SHAPED_PROLOGUE(2, 1);
        DEOPT_IF(function != tstate->interp->callable_cache.list_append);
        DEOPT_IF(!PyList_Check(args[0]));
        STAT_HIT();
        PyObject *res = PyList_Append(args[0], args[1]) < 0 ? NULL : Py_NewRef(Py_None);
        CALL_SHAPED_EPILOGUE(2, res);
    }

    TARGET(CALL_BUILTIN_CLASS) {
        CALL_PROLOGUE();
        DEOPT_IF(!PyType_Check(function) || ((PyTypeObject *)function)->tp_vectorcall == NULL);
        STAT_HIT();
        int nkw = kwnames == NULL ? 0 : (int)PyTuple_GET_SIZE(kwnames);
        PyObject *res = ((PyTypeObject *)function)->tp_vectorcall(function, args,
                                                                  total_args - nkw, kwnames);
        CALL_EPILOGUE(res);
    }

    TARGET(CALL_NON_PY_GENERAL) {
        /* what the generic CALL does with a callable that is not a Python function */
        CALL_PROLOGUE();
        DEOPT_IF(Py_TYPE(function) == &PyFunction_Type);
        STAT_HIT();
        int nkw = kwnames == NULL ? 0 : (int)PyTuple_GET_SIZE(kwnames);
        PyObject *res = PyObject_Vectorcall(function, args,
                                            (total_args - nkw) | PY_VECTORCALL_ARGUMENTS_OFFSET,
                                            kwnames);
        CALL_EPILOGUE(res);
    }

    TARGET(CALL_BUILTIN_O) {
        CALL_PROLOGUE();
        DEOPT_IF(kwnames != NULL || total_args != 1);
        DEOPT_IF(!PyCFunction_CheckExact(function) || PyCFunction_GET_FLAGS(function) != METH_O);
        STAT_HIT();
        PyObject *res = NULL;
        if (!_Py_EnterRecursiveCallTstate(tstate, " while calling a Python object")) {
            res = PyCFunction_GET_FUNCTION(function)(PyCFunction_GET_SELF(function), args[0]);
            _Py_LeaveRecursiveCallTstate(tstate);
        }
        CALL_EPILOGUE(res);
    }

    TARGET(CALL_BUILTIN_FAST) {
        CALL_PROLOGUE();
        DEOPT_IF(kwnames != NULL);
        DEOPT_IF(!PyCFunction_CheckExact(function)
                 || PyCFunction_GET_FLAGS(function) != METH_FASTCALL);
        STAT_HIT();
        PyObject *res = ((_PyCFunctionFast)(void (*)(void))PyCFunction_GET_FUNCTION(function))(
            PyCFunction_GET_SELF(function), args, total_args);
        CALL_EPILOGUE(res);
    }

    TARGET(CALL_BUILTIN_FAST_WITH_KEYWORDS) {
        CALL_PROLOGUE();
        DEOPT_IF(!PyCFunction_CheckExact(function)
                 || PyCFunction_GET_FLAGS(function) != (METH_FASTCALL | METH_KEYWORDS));
        STAT_HIT();
        int nkw = kwnames == NULL ? 0 : (int)PyTuple_GET_SIZE(kwnames);
        PyObject *res = ((_PyCFunctionFastWithKeywords)(void (*)(void))
                         PyCFunction_GET_FUNCTION(function))(
            PyCFunction_GET_SELF(function), args, total_args - nkw, kwnames);
        CALL_EPILOGUE(res);
    }

#define METHOD_DESCRIPTOR_GUARD(FLAGS) \
    DEOPT_IF(!Py_IS_TYPE(function, &PyMethodDescr_Type) || total_args < 1); \
    PyMethodDescrObject *descr = (PyMethodDescrObject *)function; \
    DEOPT_IF(descr->d_method->ml_flags != (FLAGS)); \
    DEOPT_IF(!Py_IS_TYPE(args[0], descr->d_common.d_type))

    TARGET(CALL_METHOD_DESCRIPTOR_O) {
        CALL_PROLOGUE();
        DEOPT_IF(kwnames != NULL || total_args != 2);
        METHOD_DESCRIPTOR_GUARD(METH_O);
        STAT_HIT();
        PyObject *res = NULL;
        if (!_Py_EnterRecursiveCallTstate(tstate, " while calling a Python object")) {
            res = descr->d_method->ml_meth(args[0], args[1]);
            _Py_LeaveRecursiveCallTstate(tstate);
        }
        CALL_EPILOGUE(res);
    }

    TARGET(CALL_METHOD_DESCRIPTOR_NOARGS) {
        CALL_PROLOGUE();
        DEOPT_IF(kwnames != NULL || total_args != 1);
        METHOD_DESCRIPTOR_GUARD(METH_NOARGS);
        STAT_HIT();
        PyObject *res = NULL;
        if (!_Py_EnterRecursiveCallTstate(tstate, " while calling a Python object")) {
            res = descr->d_method->ml_meth(args[0], NULL);
            _Py_LeaveRecursiveCallTstate(tstate);
        }
        CALL_EPILOGUE(res);
    }

    TARGET(CALL_METHOD_DESCRIPTOR_FAST) {
        CALL_PROLOGUE();
        DEOPT_IF(kwnames != NULL);
        METHOD_DESCRIPTOR_GUARD(METH_FASTCALL);
        STAT_HIT();
        PyObject *res = ((_PyCFunctionFast)(void (*)(void))descr->d_method->ml_meth)(
            args[0], args + 1, total_args - 1);
        CALL_EPILOGUE(res);
    }

    TARGET(CALL_METHOD_DESCRIPTOR_FAST_WITH_KEYWORDS) {
        CALL_PROLOGUE();
        METHOD_DESCRIPTOR_GUARD(METH_FASTCALL | METH_KEYWORDS);
        STAT_HIT();
        int nkw = kwnames == NULL ? 0 : (int)PyTuple_GET_SIZE(kwnames);
        PyObject *res = ((_PyCFunctionFastWithKeywords)(void (*)(void))descr->d_method->ml_meth)(
            args[0], args + 1, total_args - 1 - nkw, kwnames);
        CALL_EPILOGUE(res);
    }

    /* ================= FOR_ITER / SEND ================= */

    TARGET(FOR_ITER_ADAPTIVE) {
        ADAPTIVE(FOR_ITER, pa_specialize_for_iter(TOP(), this_instr));
    }

    /* FOR_ITER_LIST and FOR_ITER_TUPLE each take the other's iterator too, at the cost of a
     * second type test on that path only: one loop over lists and tuples in turn (pprint's
     * `for o in object`) is common, and one type per site made it miss and deopt. */
    PURE_TARGET(FOR_ITER_LIST) {
        if (Py_TYPE(TOP()) != &PyListIter_Type) {
            DEOPT_IF(Py_TYPE(TOP()) != &PyTupleIter_Type);
            goto for_iter_tuple;
        }
    for_iter_list: ;
        pa_listiter *it = (pa_listiter *)TOP();
        STAT_HIT();
        PyListObject *seq = it->it_seq;
        if (seq != NULL) {
            if (it->it_index < PyList_GET_SIZE(seq)) {
                PUSH(Py_NewRef(PyList_GET_ITEM(seq, it->it_index++)));
                SKIP_CACHE(pa_cache_for_iter);
                DISPATCH();
            }
            it->it_seq = NULL;
            PA_LISTITER_EXHAUSTED(it);
            DECREF_SYNC(seq);
        }
        STACK_SHRINK(1);
        DECREF_SYNC(it);
        JUMPTO(oparg);
        DISPATCH();
    }

    PURE_TARGET(FOR_ITER_TUPLE) {
        if (Py_TYPE(TOP()) != &PyTupleIter_Type) {
            DEOPT_IF(Py_TYPE(TOP()) != &PyListIter_Type);
            goto for_iter_list;
        }
    for_iter_tuple: ;
        pa_tupleiter *it = (pa_tupleiter *)TOP();
        STAT_HIT();
        PyTupleObject *seq = it->it_seq;
        if (seq != NULL) {
            if (it->it_index < PyTuple_GET_SIZE(seq)) {
                PUSH(Py_NewRef(PyTuple_GET_ITEM(seq, it->it_index++)));
                SKIP_CACHE(pa_cache_for_iter);
                DISPATCH();
            }
            it->it_seq = NULL;
            DECREF_SYNC(seq);
        }
        STACK_SHRINK(1);
        DECREF_SYNC(it);
        JUMPTO(oparg);
        DISPATCH();
    }

    TARGET(FOR_ITER_RANGE) {
        pa_rangeiter *r = (pa_rangeiter *)TOP();
        DEOPT_IF(Py_TYPE(r) != &PyRangeIter_Type);
        STAT_HIT();
        long value;
        if (pa_rangeiter_next(r, &value)) {
            PyObject *res = PyLong_FromLong(value);
            if (res == NULL) {
                goto error;
            }
            PUSH(res);
            SKIP_CACHE(pa_cache_for_iter);
            DISPATCH();
        }
        STACK_SHRINK(1);
        Py_DECREF(r);
        JUMPTO(oparg);
        DISPATCH();
    }

    TARGET(FOR_ITER_ITERNEXT) {
        /* The step is the generic one (tp_iternext read live), so no guard protects its
         * correctness; the guard sends back the iterators that have a form of their own, so
         * that a loop that changes to them specializes again. */
        PyObject *iter = TOP();
        PyTypeObject *tp = Py_TYPE(iter);
        DEOPT_IF(tp == &PyListIter_Type || tp == &PyTupleIter_Type || tp == &PyRangeIter_Type
                 || tp == &PyGen_Type);
        STAT_HIT();
        FOR_ITER_GENERIC_STEP(iter, tp);
    }

/* Run a suspended generator's frame inside this loop (FOR_ITER_GEN, SEND_GEN): what
 * gen_send_ex2 does before its eval call, then a jump into the frame.  Its YIELD_VALUE
 * and RETURN_VALUE come back here (see those handlers and exit_unwind).  The caller shows
 * what the version's caller shows (`last_cache`: on 3.12 the instruction's cache entry),
 * and a yield resumes it after that unit. */
#define ENTER_GENERATOR(gen, sent, last_cache) \
    do { \
        _PyFrame_SetStackPointer(frame, stack_pointer); \
        PA_FRAME_SUSPEND_IN(frame, cpy_base + CPY_OFFSET(this_instr), (last_cache)); \
        frame = pa_gen_enter_inline(tstate, (gen), (sent), frame); \
        PA_LOOP_SET_CURRENT(cframe, frame); \
        pa_stats.inlined_calls++; \
        resume_entry = gen_entry_; \
        if (gen_unit_ == NULL) { \
            goto start_cached_resumed_frame; \
        } \
        unit = gen_unit_; \
        goto start_resumed_frame; \
    } while (0)

/* A generator pyadapt can resume inline: its resume point in the resume cache
 * (pa_internal.h; gen_unit_ stays NULL), or its unit looked up, compiled. */
#define GENERATOR_GUARD(gen) \
    DEOPT_IF(INLINE_REFUSED()); \
    DEOPT_IF(PA_GEN_STATE(gen) >= FRAME_EXECUTING); \
    const void *gen_key_ = (const void *)PA_SUSPENDED_RESUME_INSTR(PA_GEN_FRAME(gen)); \
    pa_caller_entry *gen_entry_ = &pa_resume_cache[pa_code_address_slot(gen_key_, PA_RESUME_CACHE_SIZE)]; \
    pa_unit *gen_unit_ = NULL; \
    if (!CALLER_CACHED(gen_entry_, gen_key_)) { \
        gen_unit_ = pa_unit_for_code(PA_GEN_CODE(gen)); \
        DEOPT_IF(gen_unit_ == NULL || gen_unit_->reject_reason != 0); \
    }

    TARGET(FOR_ITER_GEN) {
        PyGenObject *gen = (PyGenObject *)TOP();
        DEOPT_IF(Py_TYPE(gen) != &PyGen_Type);
        GENERATOR_GUARD(gen);
        STAT_HIT();
        ENTER_GENERATOR(gen, Py_NewRef(Py_None), PA_CPY_FOR_ITER_LAST_CACHE);
    }

    TARGET(SEND_ADAPTIVE) {
        ADAPTIVE(SEND, pa_specialize_send(SECOND(), this_instr));
    }

    TARGET(SEND_GEN) {
        PyObject *v = TOP();
        PyGenObject *gen = (PyGenObject *)SECOND();
        DEOPT_IF(Py_TYPE(gen) != &PyGen_Type && Py_TYPE(gen) != &PyCoro_Type);
        GENERATOR_GUARD(gen);
        DEOPT_IF(PA_GEN_STATE(gen) == FRAME_CREATED && !Py_IsNone(v));
        STAT_HIT();
        STACK_SHRINK(1);
        ENTER_GENERATOR(gen, v, PA_CPY_SEND_LAST_CACHE);
    }

    /* ---- instructions whose semantics first came with CPython 3.12's bytecode ---- */

    TARGET(RETURN_CONST) {
        PUSH(Py_NewRef(GETITEM(consts, oparg)));
        goto TARGET_RETURN_VALUE;
    }

    TARGET(BINARY_SLICE) {
        PyObject *stop = POP(), *start = POP(), *container = TOP();
        PyObject *slice = PySlice_New(start, stop, NULL);
        Py_DECREF(start);
        Py_DECREF(stop);
        PyObject *res = slice == NULL ? NULL : PyObject_GetItem(container, slice);
        Py_XDECREF(slice);
        Py_DECREF(container);
        if (res == NULL) {
            STACK_SHRINK(1);
            goto error;
        }
        SET_TOP(res);
        DISPATCH();
    }

    TARGET(STORE_SLICE) {
        PyObject *stop = POP(), *start = POP(), *container = POP(), *v = POP();
        PyObject *slice = PySlice_New(start, stop, NULL);
        Py_DECREF(start);
        Py_DECREF(stop);
        int err = slice == NULL ? -1 : PyObject_SetItem(container, slice, v);
        Py_XDECREF(slice);
        Py_DECREF(v);
        Py_DECREF(container);
        if (err != 0) {
            goto error;
        }
        DISPATCH();
    }

    PURE_TARGET(LOAD_FAST_AND_CLEAR) {
        /* an inlined comprehension saves the outer binding of its variable, which may be
         * unbound: NULL goes on the stack, and STORE_FAST puts it back */
        PUSH(GETLOCAL(oparg));
        GETLOCAL(oparg) = NULL;
        DISPATCH();
    }

    TARGET(END_FOR) {
        PyObject *value = POP();
        Py_DECREF(value);
        value = POP();
        Py_DECREF(value);
        DISPATCH();
    }

    TARGET(END_SEND) {
        PyObject *value = POP();
        PyObject *receiver = TOP();
        SET_TOP(value);
        Py_DECREF(receiver);
        DISPATCH();
    }

    TARGET(CLEANUP_THROW) {
        /* stack: delegate, last value sent, the exception throw() raised in it */
        PyObject *exc = TOP();
        if (!PyErr_GivenExceptionMatches(exc, PyExc_StopIteration)) {
            PyErr_Restore(Py_NewRef((PyObject *)Py_TYPE(exc)), Py_NewRef(exc),
                          PyException_GetTraceback(exc));
            goto reraise;
        }
        PyObject *value = Py_NewRef(((PyStopIterationObject *)exc)->value);
        STACK_SHRINK(3);
        Py_DECREF(exc);
        Py_DECREF(stack_pointer[1]);
        Py_DECREF(stack_pointer[0]);
        PUSH(Py_NewRef(Py_None));
        PUSH(value);
        DISPATCH();
    }

    TARGET(CALL_INTRINSIC_1) {
        PyObject *value = TOP();
        PyObject *res;
        switch (oparg) {
        case PA_INTRINSIC1_PRINT:
            res = print_expr(tstate, value);
            break;
        case PA_INTRINSIC1_IMPORT_STAR:
            res = import_star(tstate, frame, value) < 0 ? NULL : Py_NewRef(Py_None);
            break;
        case PA_INTRINSIC1_STOPITERATION_ERROR:
            res = stopiteration_error(tstate, frame, value);
            break;
        case PA_INTRINSIC1_ASYNC_GEN_WRAP:
            res = async_gen_wrap(value);
            break;
        case PA_INTRINSIC1_UNARY_POSITIVE:
            res = PyNumber_Positive(value);
            break;
        case PA_INTRINSIC1_LIST_TO_TUPLE:
            res = PyList_AsTuple(value);
            break;
        default:     /* the decoder's arg_limit keeps the others out */
            _PyErr_Format(tstate, PyExc_SystemError, "pyadapt: intrinsic %d", oparg);
            res = NULL;
        }
        Py_DECREF(value);
        if (res == NULL) {
            STACK_SHRINK(1);
            goto error;
        }
        SET_TOP(res);
        DISPATCH();
    }

    TARGET(CALL_INTRINSIC_2) {
        PyObject *value1 = POP(), *value2 = TOP();
        PyObject *res;
        if (oparg == PA_INTRINSIC2_PREP_RERAISE_STAR) {
            res = pa_prep_reraise_star(value2, value1);
        }
        else {
            _PyErr_Format(tstate, PyExc_SystemError, "pyadapt: intrinsic %d", oparg);
            res = NULL;
        }
        Py_DECREF(value1);
        Py_DECREF(value2);
        if (res == NULL) {
            STACK_SHRINK(1);
            goto error;
        }
        SET_TOP(res);
        DISPATCH();
    }

    /* ---- super().name and super().method(...) ----
     * Generic, as CPython 3.12's: call super (zero-argument super() finds this frame as the
     * thread's current one), then look the name up on its result.  The specialized forms
     * skip the super object: their cache holds what the searched type's MRO has under the
     * name after super()'s class, which the searched type's version guards. */

#define SUPER_GENERIC(res) \
    PyObject *self = POP(), *klass = POP(), *global_super = TOP(); \
    PyObject *stack_[] = {klass, self}; \
    PyObject *super_ = PyObject_Vectorcall(global_super, stack_, (oparg & 1) ? 2 : 0, NULL); \
    Py_DECREF(self); \
    Py_DECREF(klass); \
    Py_DECREF(global_super); \
    PyObject *res = super_ == NULL ? NULL : PyObject_GetAttr(super_, GETITEM(names, oparg >> 1)); \
    Py_XDECREF(super_); \
    SKIP_CACHE(pa_cache_load_super); \
    if (res == NULL) { \
        STACK_SHRINK(1); \
        goto error; \
    }

    TARGET(LOAD_SUPER_ATTR) {
        SUPER_GENERIC(res);
        SET_TOP(res);
        DISPATCH();
    }

    TARGET(LOAD_SUPER_METHOD) {
        SUPER_GENERIC(res);
        SET_TOP(NULL);
        PUSH(res);
        DISPATCH();
    }

    TARGET(LOAD_SUPER_ATTR_ADAPTIVE) {
        ADAPTIVE(LOAD_SUPER_ATTR, pa_specialize_load_super(THIRD(), SECOND(), TOP(),
                                                           GETITEM(names, oparg >> 1), this_instr, 0));
    }

    TARGET(LOAD_SUPER_METHOD_ADAPTIVE) {
        ADAPTIVE(LOAD_SUPER_METHOD, pa_specialize_load_super(THIRD(), SECOND(), TOP(),
                                                             GETITEM(names, oparg >> 1), this_instr, 1));
    }

/* The guards of every form: `super` is the builtin, the class is the cached one, and the
 * searched type -- type(obj) for an instance, obj itself for a subclass of the class -- has
 * the cached version (its MRO and every dict in it as they were).  An instance that is itself
 * a subclass of the class (a metaclass's own class) is searched as a class by super(). */
#define SUPER_GUARD(cache, searched_version) \
    DEOPT_IF(THIRD() != (PyObject *)&PySuper_Type); \
    DEOPT_IF(SECOND() != PA_SUPER_CLASS(cache)); \
    DEOPT_IF((searched_version) != (cache)->type_version)
#define SUPER_GUARD_INSTANCE(cache, self) \
    SUPER_GUARD(cache, Py_TYPE(self)->tp_version_tag); \
    DEOPT_IF(PyType_Check(self) && PyType_IsSubtype((PyTypeObject *)(self), (PyTypeObject *)SECOND()))
#define SUPER_GUARD_CLASS(cache, self) \
    DEOPT_IF(!PyType_Check(self)); \
    SUPER_GUARD(cache, ((PyTypeObject *)(self))->tp_version_tag)
#define PA_SUPER_CLASS(cache) ((PyObject *)pa_read_ptr((cache)->class_lo, (cache)->class_hi))
/* Drop super, the class and obj (the top three); push res, or raise if it is NULL. */
#define SUPER_FINISH(res, push_null) \
    do { \
        PyObject *self_ = POP(), *klass_ = POP(); \
        Py_DECREF(self_); \
        Py_DECREF(klass_); \
        Py_DECREF(TOP());       /* the builtin super, a static type */ \
        SKIP_CACHE(pa_cache_load_super); \
        if ((res) == NULL) { \
            STACK_SHRINK(1); \
            goto error; \
        } \
        if (push_null) { \
            SET_TOP(NULL); \
            PUSH(res); \
        } \
        else { \
            SET_TOP(res); \
        } \
    } while (0)

/* A form whose result is `descr`, the cached attribute (read only once the guards passed),
 * bound as super() binds it: to the instance (`of_class` 0) or, searched as a class, to that
 * class. */
#define SUPER_BOUND(cache, descr, of_class, push_null) \
    do { \
        PyObject *self = TOP(); \
        if (of_class) { \
            SUPER_GUARD_CLASS(cache, self); \
        } \
        else { \
            SUPER_GUARD_INSTANCE(cache, self); \
        } \
        STAT_HIT(); \
        PyObject *res = (of_class) ? pa_super_bind((descr), NULL, (PyTypeObject *)self) \
                                   : pa_super_bind((descr), self, Py_TYPE(self)); \
        SUPER_FINISH(res, push_null); \
        DISPATCH(); \
    } while (0)

    TARGET(LOAD_SUPER_ATTR_INSTANCE) {
        pa_cache_load_super *cache = (pa_cache_load_super *)next_instr;
        SUPER_BOUND(cache, PA_CACHED_PTR(cache), 0, 0);
    }

    TARGET(LOAD_SUPER_ATTR_CLASS) {
        pa_cache_load_super *cache = (pa_cache_load_super *)next_instr;
        SUPER_BOUND(cache, PA_CACHED_PTR(cache), 1, 0);
    }

    TARGET(LOAD_SUPER_METHOD_INSTANCE) {
        pa_cache_load_super *cache = (pa_cache_load_super *)next_instr;
        PyObject *self = TOP();
        SUPER_GUARD_INSTANCE(cache, self);
        STAT_HIT();
        PyObject *descr = PA_CACHED_PTR(cache);
        PyObject *res;
        if ((Py_TYPE(descr)->tp_flags & Py_TPFLAGS_METHOD_DESCRIPTOR)
            && Py_TYPE(self)->tp_getattro == PyObject_GenericGetAttr) {
            /* as CPython's LOAD_SUPER_ATTR_METHOD: the method and obj, for CALL to bind */
            PyObject *klass = SECOND(), *global_super = THIRD();
            THIRD() = Py_NewRef(descr);
            SECOND() = self;
            STACK_SHRINK(1);
            Py_DECREF(klass);
            Py_DECREF(global_super);
            SKIP_CACHE(pa_cache_load_super);
            DISPATCH();
        }
        res = pa_super_bind(descr, self, Py_TYPE(self));
        SUPER_FINISH(res, 1);
        DISPATCH();
    }

    TARGET(LOAD_SUPER_METHOD_CLASS) {
        pa_cache_load_super *cache = (pa_cache_load_super *)next_instr;
        SUPER_BOUND(cache, PA_CACHED_PTR(cache), 1, 1);
    }

    default:
        goto unknown_opcode;
    } /* end of instructions */

miss: {
        /* A guard failed: run the family's generic handler for this execution; after
         * miss_budget misses, send the instruction back to its adaptive form. */
        int op = PA_OPCODE(*this_instr);      /* the form whose guard failed */
        pa_op_stats[op].misses++;
        uint32_t *counter = &PA_SITE_COUNTER(this_instr);
        int family = pa_family_of[op];
        pa_site_missed(this_instr, stack_pointer, family, oparg);     /* what came instead */
        if (PA_COUNTER_VALUE(*counter) <= 1) {
            /* back to adaptive; a site that keeps deopting (polymorphic) waits longer each
             * time before it specializes again: 31, 63, 127, ... executions.  A form that
             * paid for itself -- twice as many hits as the misses that ended it -- starts
             * that count afresh, as CPython's deopts always do: a site of one dominant type
             * and a rare other one (asyncio's Handle.__init__, run for TimerHandle too) would
             * otherwise climb to the longest wait, 65,535 executions, and run generic
             * nearly all the time while it kept specializing well. */
            uint32_t backoff = PA_COUNTER_BACKOFF(*counter);
            if (PA_SITE_HITS(this_instr) >= 2 * pa_config.miss_budget) {
                backoff = 0;
            }
            if (backoff < pa_config.max_backoff) {
                backoff++;
            }
            uint32_t wait = (16u << backoff) - 1;
            if (wait < pa_config.warmup) {
                wait = pa_config.warmup;
            }
            PA_SET_OPCODE(this_instr, pa_adaptive_of[family]);
            *counter = PA_COUNTER(0, backoff, wait > PA_MAX_WARMUP ? PA_MAX_WARMUP : wait);
            pa_op_stats[op].deopts++;
            pa_op_stats[op].hits += PA_SITE_HITS(this_instr);   /* the site's hits retire with it */
            PA_SITE_HITS(this_instr) = 0;
        }
        else {
            (*counter)--;
        }
        opcode = family;
        next_instr = this_instr + 1;
        DISPATCH_GOTO();
    }

generic_this_time:
    opcode = pa_family_of[PA_OPCODE(*this_instr)];
    next_instr = this_instr + 1;
    DISPATCH_GOTO();

unknown_opcode:
    _PyErr_Format(tstate, PyExc_SystemError, "pyadapt: unknown opcode %d", (int)PA_OPCODE(*this_instr));
    goto error;

unbound_local_error:
    SYNC_LASTI();
    format_exc_check_arg(tstate, PyExc_UnboundLocalError, UNBOUNDLOCAL_ERROR_MSG,
                         PyTuple_GetItem(PA_FRAME_CODE(frame)->co_localsplusnames, oparg));
    goto error;

reraise:
    /* An exception re-raised as it was (RERAISE, a bare raise, END_ASYNC_FOR): no new
     * traceback entry, no tracer event.  Setting traced_unwind here, not in the handlers,
     * keeps it dead across dispatches: otherwise gcc keeps a register zeroed at each one. */
    traced_unwind = 0;
    goto exception_unwind;

error:
    kwnames = NULL;
    if (!_PyErr_Occurred(tstate)) {
        _PyErr_SetString(tstate, PyExc_SystemError, "error return without exception set");
    }
    if (!_PyFrame_IsIncomplete(frame)) {
        PyFrameObject *f = pa_frame_object(tstate, frame);
        if (f != NULL) {
            PyTraceBack_Here(f);
        }
    }
    traced_unwind = 0;
    if (PA_TRACER_SET(tstate) && TRACING_CAN_HAND_OVER()) {
        pa_trace_exception(tstate, frame);
        traced_unwind = 1;
    }

exception_unwind: {
        int index = (int)(this_instr - code_base);
        pa_exc_entry *handler = NULL;
        for (int i = 0; i < unit->nexc; i++) {
            pa_exc_entry *e = &unit->exc[i];
            if (e->start > index) {
                break;
            }
            if (index < e->end) {
                handler = e;
                break;
            }
        }
        if (handler == NULL) {
            PyObject **stackbase = _PyFrame_Stackbase(frame);
            while (stack_pointer > stackbase) {
                PyObject *o = POP();
                Py_XDECREF(o);
            }
            _PyFrame_SetStackPointer(frame, stack_pointer);
            if (traced_unwind) {
                /* the frame ends with the exception: the tracer's 'return' event */
                traced_unwind = 0;
                pa_trace_return_with_exception(tstate, frame);
            }
            goto exit_unwind;
        }
        PyObject **new_top = _PyFrame_Stackbase(frame) + handler->depth;
        while (stack_pointer > new_top) {
            PyObject *v = POP();
            Py_XDECREF(v);
        }
        if (handler->lasti) {
            PyObject *lasti = PyLong_FromLong(_PyInterpreterFrame_LASTI(frame));
            if (lasti == NULL) {
                goto exception_unwind;
            }
            PUSH(lasti);
        }
        PyObject *exc, *val, *tb;
        _PyErr_Fetch(tstate, &exc, &val, &tb);
        _PyErr_NormalizeException(tstate, &exc, &val, &tb);
        PyException_SetTraceback(val, tb != NULL ? tb : Py_None);
        Py_XDECREF(tb);
        Py_XDECREF(exc);
        PUSH(val);
        JUMPTO(handler->handler);
        if (traced_unwind) {
            /* CPython's loop runs the handler, with line events (a stack it cannot be given
             * yet goes at the frame's next hand-over) */
            traced_unwind = 0;
            if (PA_STACK_CAN_CONVERT(unit, _PyFrame_Stackbase(frame), stack_pointer, next_instr,
                                     &handover_saved)) {
                this_instr = next_instr;
                PA_FRAME_HANDOVER_AT(frame, cpy_base + CPY_OFFSET(this_instr) - 1,
                                     cpy_base + CPY_OFFSET(this_instr));
                goto handover;
            }
        }
        DISPATCH();
    }

handover: {
        /* Tracing is on: CPython's loop runs the rest of this frame (it emits the line,
         * call and return events a debugger or profiler expects), then pyadapt continues
         * with the frame's caller, which is handed over the same way while tracing stays
         * on.  Each frame goes once, so the C stack does not grow with the chain. */
        /* every way here asked PA_STACK_CAN_CONVERT, which set handover_saved */
        PA_STACK_TO_CPYTHON(unit, _PyFrame_Stackbase(frame), stack_pointer, handover_saved);
        _PyFrame_SetStackPointer(frame, stack_pointer);
        pa_leave_py_level(tstate);
        pa_count_fallback(PA_FB_TRACING);
        _PyInterpreterFrame *done = frame;
        frame = done->previous;
        PA_LOOP_SET_CURRENT(cframe, frame);      /* CPython's loop re-links the frame */
        PyObject *res = pa_delegate_frame(tstate, done, PA_LOOP_IS_ENTRY(cframe, done));
        if (PA_LOOP_IS_ENTRY(cframe, done)) {
            LEAVE_LOOP(res);
        }
        if (res == NULL) {
            goto resume_with_error;
        }
        retval = res;
        goto return_to_caller;
    }

return_to_caller: {
    /* `retval` is the result of the inlined call the current frame is suspended in. */
    const void *lasti = PA_CALLER_KEY(frame);
    pa_caller_entry *ce = &pa_caller_cache[pa_code_address_slot(lasti, PA_CALLER_CACHE_SIZE)];
    if (CALLER_CACHED(ce, lasti)) {
        LOAD_CACHED_CALLER_STATE(ce);
        PUSH(retval);
        goto caller_resumed;
    }
    LOAD_CALLER_STATE();
    if (CPY_OFFSET(next_instr) <= (uint32_t)_PyInterpreterFrame_LASTI(frame)) {
        /* Suspended at the start of its instruction (f_lasti as for a call CPython 3.11
         * makes in C): a property getter or __getattribute__ returned its value (3.11:
         * PA_CPY_GETTER_SHOWS), or CALL_PY_CLASS's __init__ returned and the object is on the
         * stack already. */
        this_instr = next_instr;
        int family = pa_family_of[PA_OPCODE(*this_instr)];
        if (family == PA_CALL) {
            pa_class_call_leave(tstate);              /* type.__call__'s levels */
            if (!Py_IsNone(retval)) {
                _PyErr_Format(tstate, PyExc_TypeError,
                              "__init__() should return None, not '%.200s'",
                              Py_TYPE(retval)->tp_name);
                Py_DECREF(retval);
                goto error;
            }
            Py_DECREF(retval);
            PA_FRAME_SUSPEND_IN(frame, PA_FRAME_LAST_INSTR(frame), PA_CPY_CALL_LAST_CACHE);
        }
        else {
            PA_ASSERT(family == PA_LOAD_ATTR);
            PUSH(retval);
            PA_FRAME_SUSPEND_IN(frame, PA_FRAME_LAST_INSTR(frame), PA_CPY_LOAD_ATTR_LAST_CACHE);
        }
        next_instr = this_instr + 1 + pa_opinfo_table[PA_OPCODE(*this_instr)].ncache;
    }
    else {
        PUSH(retval);
        CACHE_CALLER_STATE(ce, lasti);
    }
    }
caller_resumed:
    if (TRACING_CAN_HAND_OVER()) {
        /* the last instruction marks the end of the instruction this frame was in */
        PA_FRAME_HANDOVER_AT(frame, PA_FRAME_LAST_INSTR(frame), cpy_base + CPY_OFFSET(next_instr));
        goto handover;
    }
    DISPATCH();

exit_unwind:
    pa_leave_py_level(tstate);
    if (PA_LOOP_IS_ENTRY(cframe, frame)) {
        FINISH_ENTRY_FRAME(NULL);
    }
    {
        _PyInterpreterFrame *dying = frame;
        frame = dying->previous;
        PA_LOOP_SET_CURRENT(cframe, frame);
        if (dying->owner == FRAME_OWNED_BY_GENERATOR) {
            pa_gen_finish_inline(tstate, dying, 1);
        }
        else {
            pa_clear_and_pop_frame(tstate, dying);
        }
    }

resume_with_error:
    LOAD_FRAME_STATE();
    this_instr = code_base + unit->from_cpy[_PyInterpreterFrame_LASTI(frame)];
    if (pa_family_of[PA_OPCODE(*this_instr)] == PA_CALL
            && CPY_OFFSET(this_instr) == (uint32_t)_PyInterpreterFrame_LASTI(frame)
            && !PA_CALLER_PAST_INSTR(frame)) {
        /* CALL_PY_CLASS's __init__ raised: type.__call__'s levels end with it (a caller
         * of another inlined call shows the CALL itself too on 3.13, and goes on past it) */
        pa_class_call_leave(tstate);
    }
    goto error;
}
