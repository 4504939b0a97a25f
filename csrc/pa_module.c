/* pa_module.c -- the builtins the C core adds to its own module, pyadapt._pyadapt: what
 * the Python layer asks of units (introspection, compiling, configure, statistics), the
 * launcher's top-level call, and the runtime helpers the tests call directly.
 *
 * Boundary rule (see docs/architecture.md): data crosses through cffi (pa_cdef.h); Python
 * objects cross only through the builtins registered here with PyModule_AddFunctions
 * (these and the hook's, pa_hook_methods), which run with the GIL held like any builtin.
 */
#include "pa_internal.h"
#include "pa_caches.h"

/* The argument of a builtin that takes a code object: 1 if it is one, else 0 with TypeError. */
int
pa_check_code_arg(PyObject *arg)
{
    if (PyCode_Check(arg)) {
        return 1;
    }
    PyErr_Format(PyExc_TypeError, "expected a code object, not %.200s", Py_TYPE(arg)->tp_name);
    return 0;
}

static PyObject *
mod_unit_address(PyObject *self, PyObject *arg)
{
    (void)self;
    if (!pa_check_code_arg(arg)) {
        return NULL;
    }
    /* a cold unit is the hook's bookkeeping, not a compiled unit: none for introspection */
    pa_unit *u = pa_unit_for_code((PyCodeObject *)arg);
    return PyLong_FromVoidPtr(u != NULL && u->reject_reason == PA_FB_COLD ? NULL : u);
}

/* The units the return and resume caches' entries name: a list of ("return" or "resume",
 * unit address), an item per entry in use, for tests of when the caches are emptied. */
static PyObject *
mod_cached_units(PyObject *self, PyObject *noargs)
{
    (void)self;
    (void)noargs;
    PyObject *out = PyList_New(0);
    if (out == NULL) {
        return NULL;
    }
    const struct { const char *kind; pa_caller_entry *table; size_t size; } caches[] = {
        {"return", pa_caller_cache, PA_CALLER_CACHE_SIZE},
        {"resume", pa_resume_cache, PA_RESUME_CACHE_SIZE},
    };
    for (size_t c = 0; c < sizeof(caches) / sizeof(caches[0]); c++) {
        for (size_t i = 0; i < caches[c].size; i++) {
            if (caches[c].table[i].lasti == NULL) {
                continue;
            }
            PyObject *item = Py_BuildValue("(sN)", caches[c].kind,
                                           PyLong_FromVoidPtr(caches[c].table[i].unit));
            if (item == NULL || PyList_Append(out, item) < 0) {
                Py_XDECREF(item);
                Py_DECREF(out);
                return NULL;
            }
            Py_DECREF(item);
        }
    }
    return out;
}

/* A copy of a code object's site records (pa_site_record[], as bytes), taken in one step
 * under the GIL: the array itself may be reallocated by a specialization attempt, or freed
 * by configure(), between any two bytecodes of a Python reader (another thread, a __del__).
 * The strings the records point to live as long as the process (pa_sites.c). */
static PyObject *
mod_site_records(PyObject *self, PyObject *arg)
{
    (void)self;
    if (!pa_check_code_arg(arg)) {
        return NULL;
    }
    return pa_site_records_bytes(pa_unit_for_code((PyCodeObject *)arg));
}

/* The generic code of `code` as pyadapt compiles it (bytes of native uint32 words), for
 * dis(adaptive=False): units keep no copy of it, so it is compiled again (the same words:
 * the compiler reads the de-quickened co_code).  ValueError saying why it cannot be. */
static PyObject *
mod_generic_code(PyObject *self, PyObject *arg)
{
    (void)self;
    if (!pa_check_code_arg(arg)) {
        return NULL;
    }
    const char *err;
    pa_unit *u = pa_compile_generic((PyCodeObject *)arg, &err);
    if (u == NULL) {
        PyErr_SetString(PyExc_ValueError, err);
        return NULL;
    }
    PyObject *words = PyBytes_FromStringAndSize((const char *)u->code,
                                                (Py_ssize_t)(sizeof(uint32_t) * (size_t)u->ncode));
    pa_unit_free(u);
    return words;
}

static PyObject *
mod_compile(PyObject *self, PyObject *arg)
{
    (void)self;
    if (!pa_check_code_arg(arg)) {
        return NULL;
    }
    return PyLong_FromVoidPtr(pa_get_or_compile((PyCodeObject *)arg));
}

/* A new unit for `code` that is not attached to it (pyadapt._compiler.compile_code: the
 * caller frees it with pa_unit_free); ValueError saying why the compiler refused it. */
static PyObject *
mod_compile_unattached(PyObject *self, PyObject *arg)
{
    (void)self;
    if (!pa_check_code_arg(arg)) {
        return NULL;
    }
    const char *err;
    pa_unit *u = pa_compile((PyCodeObject *)arg, &err);
    if (u == NULL) {
        PyErr_SetString(PyExc_ValueError, err);
        return NULL;
    }
    PyObject *addr = PyLong_FromVoidPtr(u);
    if (addr == NULL) {
        pa_unit_free(u);
    }
    return addr;
}

static PyObject *
mod_mark_jit(PyObject *self, PyObject *arg)
{
    (void)self;
    if (!pa_check_code_arg(arg)) {
        return NULL;
    }
    pa_unit *u = pa_get_or_compile((PyCodeObject *)arg);
    if (u == NULL) {
        return PyErr_NoMemory();
    }
    u->flags |= PA_UNIT_JIT;
    pa_hook_keep_for_jit();
    return PyLong_FromVoidPtr(u);
}

/* The match statement's look-ups (csrc/pa_match.c), for tests/test_runtime_helpers.py. */
static PyObject *
mod_match_class(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 4 || !PyLong_Check(args[2]) || !PyTuple_CheckExact(args[3])) {
        PyErr_SetString(PyExc_TypeError, "_match_class(subject, cls, nargs, names: tuple)");
        return NULL;
    }
    Py_ssize_t n = PyLong_AsSsize_t(args[2]);
    if (n == -1 && PyErr_Occurred()) {
        return NULL;
    }
    return pa_match_class(args[0], args[1], n, args[3]);
}

static PyObject *
mod_match_keys(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 2 || !PyTuple_CheckExact(args[1])) {
        PyErr_SetString(PyExc_TypeError, "_match_keys(subject, keys: tuple)");
        return NULL;
    }
    return pa_match_keys(args[0], args[1]);
}

/* The except* machinery (csrc/pa_excgroup.c), for tests/test_runtime_helpers.py. */
static PyObject *
none_unless_error(int err)
{
    return err < 0 ? NULL : Py_NewRef(Py_None);
}

static PyObject *
mod_check_except_type_valid(PyObject *self, PyObject *match_type)
{
    (void)self;
    return none_unless_error(pa_check_except_type_valid(match_type));
}

static PyObject *
mod_check_except_star_type_valid(PyObject *self, PyObject *match_type)
{
    (void)self;
    return none_unless_error(pa_check_except_star_type_valid(match_type));
}

static PyObject *
mod_exception_group_match(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 2 || !(Py_IsNone(args[0]) || PyExceptionInstance_Check(args[0]))) {
        PyErr_SetString(PyExc_TypeError,
                        "_exception_group_match(exc: BaseException | None, match_type)");
        return NULL;
    }
    if (pa_check_except_star_type_valid(args[1]) < 0) {
        return NULL;
    }
    PyObject *match, *rest;
    if (pa_exception_group_match(args[0], args[1], &match, &rest) < 0) {
        return NULL;
    }
    PyObject *pair = PyTuple_Pack(2, match, rest);
    Py_DECREF(match);
    Py_DECREF(rest);
    return pair;
}

static PyObject *
mod_prep_reraise_star(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 2 || !PyExceptionInstance_Check(args[0]) || !PyList_CheckExact(args[1])) {
        PyErr_SetString(PyExc_TypeError, "_prep_reraise_star(orig: BaseException, excs: list)");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(args[1]); i++) {
        PyObject *e = PyList_GET_ITEM(args[1], i);
        if (!Py_IsNone(e) && !PyExceptionInstance_Check(e)) {
            PyErr_SetString(PyExc_TypeError, "_prep_reraise_star: excs holds exceptions or None");
            return NULL;
        }
    }
    return pa_prep_reraise_star(args[0], args[1]);
}

static PyObject *
mod_configure(PyObject *self, PyObject *args)
{
    (void)self;
    int specialize;
    unsigned int warmup;
    if (!PyArg_ParseTuple(args, "pI:_configure", &specialize, &warmup)) {
        return NULL;
    }
    if (warmup > PA_MAX_WARMUP) {
        PyErr_SetString(PyExc_ValueError, "warmup must be below 2**20");
        return NULL;
    }
    int changed = specialize != pa_config.specialize || warmup != pa_config.warmup;
    pa_config.specialize = specialize;
    pa_config.warmup = warmup;
    int failed = 0;
    if (changed) {
        uint64_t hits[256] = {0};
        for (pa_unit *u = pa_registry_head; u != NULL; u = u->registry_next) {
            if (PA_UNIT_COMPILED(u)) {
                pa_unit_add_site_hits(u, hits, sizeof(hits[0]));      /* counted before the sites start over */
                if (pa_unit_requicken(u) < 0) {
                    failed = 1;                      /* out of memory: its code stays as it was */
                }
            }
        }
        for (int op = 0; op < 256; op++) {
            pa_op_stats[op].hits += hits[op];
        }
    }
    if (failed) {
        return PyErr_NoMemory();
    }
    Py_RETURN_NONE;
}

/* Hits per opcode: units alive (per site) plus units already freed. */
static PyObject *
mod_hits_by_opcode(PyObject *self, PyObject *unused)
{
    (void)self; (void)unused;
    uint64_t hits[256] = {0};
    for (pa_unit *u = pa_registry_head; u != NULL; u = u->registry_next) {
        if (PA_UNIT_COMPILED(u)) {
            pa_unit_add_site_hits(u, hits, sizeof(hits[0]));
        }
    }
    PyObject *list = PyList_New(PA_OPCODE_COUNT);
    for (int op = 0; list != NULL && op < PA_OPCODE_COUNT; op++) {
        PyObject *n = PyLong_FromUnsignedLongLong(hits[op] + pa_op_stats[op].hits);
        if (n == NULL) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, op, n);
    }
    return list;
}

/* Code objects of all units alive, cold ones left out (for the report). */
static PyObject *
mod_compiled_codes(PyObject *self, PyObject *unused)
{
    (void)self; (void)unused;
    PyObject *list = PyList_New(0);
    for (pa_unit *u = pa_registry_head; list != NULL && u != NULL; u = u->registry_next) {
        if (u->code_object != NULL && u->reject_reason != PA_FB_COLD
                && PyList_Append(list, (PyObject *)u->code_object) < 0) {
            Py_CLEAR(list);
        }
    }
    return list;
}

static PyObject *
mod_reset_site_hits(PyObject *self, PyObject *unused)
{
    (void)self; (void)unused;
    for (pa_unit *u = pa_registry_head; u != NULL; u = u->registry_next) {
        if (!PA_UNIT_COMPILED(u)) {
            continue;
        }
        FOR_EACH_INSTRUCTION(u, i) {
            int op = PA_OPCODE(u->code[i]);
            if (pa_opinfo_table[op].ncache >= 2) {
                PA_SITE_HITS(&u->code[i]) = 0;
            }
        }
    }
    Py_RETURN_NONE;
}

/* Call func(*args) as python calls a program's top level: no Python frame below it (its
 * bottom frame has no f_back) and the whole recursion limit, although pyadapt's command
 * line called it.  The launcher runs a script's or -c's code this way (func: exec), and
 * runpy._run_module_as_main for -m, directories and zip files, so that the program's stack
 * is the native one.  The frames below are unlinked only for the duration of the call. */
static PyObject *
mod_call_toplevel(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs < 1) {
        PyErr_SetString(PyExc_TypeError, "_call_toplevel(func, *args)");
        return NULL;
    }
    PyThreadState *tstate = PyThreadState_Get();
    _PyInterpreterFrame *below = PA_CURRENT_FRAME(tstate);
    int saved_remaining = PA_PY_RECURSION_REMAINING(tstate);
    PA_CURRENT_FRAME(tstate) = NULL;
    /* calling anything but a Python function (exec, the console's ctypes function) counts
     * the levels of that call (3.11: one), which python does not make */
    int saved_c_remaining = PA_C_RECURSION_REMAINING(tstate);
    PA_TOPLEVEL_C_LEVELS(tstate, !PyFunction_Check(args[0]));
    PA_PY_RECURSION_REMAINING(tstate) =
        PA_PY_RECURSION_LIMIT(tstate) + (PyFunction_Check(args[0]) ? 0 : PA_C_CALL_PY_LEVELS);
    PyObject *res = PyObject_Vectorcall(args[0], args + 1, nargs - 1, NULL);
    PA_C_RECURSION_REMAINING(tstate) = saved_c_remaining;
    PA_PY_RECURSION_REMAINING(tstate) = saved_remaining;
    PA_CURRENT_FRAME(tstate) = below;
    return res;
}

static PyMethodDef pa_module_methods[] = {
    {"mark_jit", mod_mark_jit, METH_O, "compile a code object and always run it under pyadapt"},
    {"_call_toplevel", (PyCFunction)(void (*)(void))mod_call_toplevel, METH_FASTCALL,
     "_call_toplevel(func, *args): call func with no Python frames below it"},
    {"_hits_by_opcode", mod_hits_by_opcode, METH_NOARGS, "hits per opcode, all units"},
    {"_compiled_codes", mod_compiled_codes, METH_NOARGS, "code objects with a unit"},
    {"_reset_site_hits", mod_reset_site_hits, METH_NOARGS, "zero every site's hit count"},
    {"_configure", mod_configure, METH_VARARGS,
     "_configure(specialize, warmup): set the mode and re-quicken every unit"},
    {"unit_address", mod_unit_address, METH_O,
     "address of a code object's unit, or 0 (none yet, or cold)"},
    {"_cached_units", mod_cached_units, METH_NOARGS,
     "(cache, unit address) of each entry of the return and resume caches"},
    {"site_records", mod_site_records, METH_O,
     "a copy of a code object's site records (pa_site_record[]) as bytes"},
    {"generic_code", mod_generic_code, METH_O,
     "a code object's generic code as pyadapt compiles it (bytes of uint32 words)"},
    {"compile", mod_compile, METH_O, "compile a code object (if not yet); its unit's address"},
    {"_compile_unattached", mod_compile_unattached, METH_O,
     "compile a code object into a new unit not attached to it; its address"},
    {"_check_except_type_valid", mod_check_except_type_valid, METH_O,
     "_check_except_type_valid(match_type): CHECK_EXC_MATCH's type check"},
    {"_check_except_star_type_valid", mod_check_except_star_type_valid, METH_O,
     "_check_except_star_type_valid(match_type): CHECK_EG_MATCH's type check"},
    {"_exception_group_match", (PyCFunction)(void (*)(void))mod_exception_group_match,
     METH_FASTCALL, "_exception_group_match(exc, match_type): CHECK_EG_MATCH's (match, rest)"},
    {"_prep_reraise_star", (PyCFunction)(void (*)(void))mod_prep_reraise_star, METH_FASTCALL,
     "_prep_reraise_star(orig, excs): PREP_RERAISE_STAR's result"},
    {"_match_class", (PyCFunction)(void (*)(void))mod_match_class, METH_FASTCALL,
     "_match_class(subject, cls, nargs, names): MATCH_CLASS's look-up"},
    {"_match_keys", (PyCFunction)(void (*)(void))mod_match_keys, METH_FASTCALL,
     "_match_keys(subject, keys): MATCH_KEYS's look-up"},
    {NULL, NULL, 0, NULL},
};

/* Called once through cffi at import: registers the builtins on this very module. */
int
pa_core_init(void)
{
    PyGILState_STATE gil = PyGILState_Ensure();
    int rc = -1;
    pa_opinfo_init();
    PyObject *mod = PyImport_ImportModule("pyadapt._pyadapt");
    if (mod == NULL) {
        PyErr_Clear();
        goto done;
    }
    rc = PyModule_AddFunctions(mod, pa_module_methods);
    if (rc == 0) {
        rc = PyModule_AddFunctions(mod, pa_hook_methods);
    }
    if (rc == 0) {
        rc = pa_hook_init(mod);
    }
    pa_units_init();
    if (rc == 0 && pa_specialize_init() < 0) {
        rc = -1;
    }
    if (rc == 0 && pa_seam_init() < 0) {
        rc = -1;
    }
    if (rc < 0) {
        PyErr_Clear();
    }
    Py_DECREF(mod);
done:
    PyGILState_Release(gil);
    return rc;
}
