/* pa_hook.c -- the PEP 523 frame-evaluation hook, compiled units on code objects, and the
 * builtins the C core adds to its own module.
 *
 * Boundary rule (see docs/architecture.md): data crosses through cffi (pa_cdef.h); Python
 * objects cross only through the builtins registered here with PyModule_AddFunctions,
 * which run with the GIL held like any builtin.
 */
#include "pa_internal.h"
#include "pa_caches.h"

/* ---- the instruction metadata table, expanded from pa_opcodes.h ---- */

#define PA_STR_(x) #x
#define PA_STR(x) PA_STR_(x)
/* the ARG of each row that has one, for its specialized forms */
enum {
#define PA_OP0(NAME, ARG, ...) PA_ARG_OF_##NAME = PA_ARG_##ARG,
#define PA_OPC(NAME, CACHE, ARG, ...) PA_ARG_OF_##NAME = PA_ARG_##ARG,
#define PA_SPEC(NAME, ...)
    PA_OPCODE_LIST
#undef PA_OP0
#undef PA_OPC
#undef PA_SPEC
};
const pa_opinfo pa_opinfo_table[256] = {
#define PA_OP0(NAME, ARG, POP, PUSH, FLAGS) \
    [PA_##NAME] = {.name = #NAME, .ncache = 0, .flags = (FLAGS), .cache_type = NULL, \
                   .family = PA_##NAME, .arg = PA_ARG_##ARG},
#define PA_OPC(NAME, CACHE, ARG, POP, PUSH, FLAGS) \
    [PA_##NAME] = {.name = #NAME, .ncache = PA_CACHE_UNITS(CACHE), .flags = (FLAGS), \
                   .cache_type = #CACHE, .family = PA_##NAME, .arg = PA_ARG_##ARG},
#define PA_SPEC(NAME, FAMILY, FLAGS) \
    [PA_##NAME] = {.name = #NAME, .ncache = PA_CACHE_UNITS(PA_CACHE_OF_##FAMILY), \
                   .flags = (FLAGS), .cache_type = PA_STR(PA_CACHE_OF_##FAMILY), \
                   .family = PA_##FAMILY, .arg = PA_ARG_OF_##FAMILY},
    PA_OPCODE_LIST
#undef PA_OP0
#undef PA_OPC
#undef PA_SPEC
};
_Static_assert(PA_OPCODE_COUNT <= (1 << PA_OPCODE_BITS), "opcodes must fit the word's opcode field");
_Static_assert(sizeof(pa_opinfo) == 32, "the loop indexes pa_opinfo_table with a shift");

/* Every cache layout begins with the cache head (PA_SITE_COUNTER, PA_SITE_HITS). */
#define PA_OP0(NAME, ...)
#define PA_OPC(NAME, CACHE, ...) \
    _Static_assert(offsetof(CACHE, counter) == offsetof(pa_cache_head, counter) \
                   && offsetof(CACHE, hits) == offsetof(pa_cache_head, hits), \
                   #CACHE " must begin with the cache head");
#define PA_SPEC(NAME, ...)
PA_OPCODE_LIST
#undef PA_OP0
#undef PA_OPC
#undef PA_SPEC

uint8_t pa_family_of[256];
uint8_t pa_adaptive_of[256];

static void
init_family_tables(void)
{
    for (int op = 0; op < PA_OPCODE_COUNT; op++) {
        pa_family_of[op] = (uint8_t)pa_opinfo_table[op].family;
        if (pa_opinfo_table[op].flags & PA_F_ADAPTIVE) {
            pa_adaptive_of[pa_opinfo_table[op].family] = (uint8_t)op;
        }
    }
}
const int pa_num_opcodes = PA_OPCODE_COUNT;

const char *const pa_fallback_names[PA_NUM_FALLBACKS] = {
    [PA_FB_NONE] = "none",
    [PA_FB_TRACING] = "tracing",
    [PA_FB_COMPILE_FAILED] = "compile_failed",
    [PA_FB_UNSUPPORTED] = "unsupported",
    [PA_FB_FOREIGN_EVAL_FRAME] = "foreign_eval_frame",
    [PA_FB_COLD] = "cold",
};

pa_stats_t pa_stats;

void
pa_count_fallback(int reason)
{
    pa_stats.fallbacks[reason]++;
}

/* ---- thread state of the hook ---- */

/* initial-exec: a plain %fs-relative access, no __tls_get_addr call on every frame */
#define PA_TLS _Thread_local __attribute__((tls_model("initial-exec")))
static PA_TLS int tls_depth;      /* > 0: this thread runs inside pyadapt's extent */
static PA_TLS int tls_runs;       /* > 0: this thread is inside run(): nothing is cold there */
static int global_enabled;               /* python -m pyadapt / PYADAPT=1 / enable() */
static int active_runs;                  /* run() extents alive, all threads */
static int have_jit;                     /* a @jit function exists: the hook stays */
int pa_hook_installed;                   /* pyadapt wants its hook in the slot */

/* The interpreter has one eval-frame slot, and other PEP 523 users (a debugger's frame
 * evaluator, a tracing JIT, test_capi's recorder) may set it while pyadapt runs.  pyadapt
 * installs its hook only over the default and removes it only while the slot is still
 * its own.  While another function holds the slot, pyadapt's loop makes no inline frames
 * (INLINE_REFUSED in pa_eval.c): each call goes through C and _PyEval_EvalFrame, so the
 * other hook sees every frame it would see natively; frames it hands on to pyadapt's hook
 * (if it chains) still run here. */
static void
set_hook_if_default(PyInterpreterState *interp)
{
    if (_PyInterpreterState_GetEvalFrameFunc(interp) == _PyEval_EvalFrameDefault) {
        _PyInterpreterState_SetEvalFrameFunc(interp, pa_eval_frame);
    }
}

static void
install_hook(void)
{
    pa_hook_installed = 1;
    set_hook_if_default(PyInterpreterState_Get());
}

static void
maybe_uninstall_hook(void)
{
    /* A hook costs every call (CPython stops inlining Python calls while one is set):
     * keep it only while something needs it. */
    if (pa_hook_installed && !global_enabled && active_runs == 0 && !have_jit) {
        pa_hook_installed = 0;
        PyInterpreterState *interp = PyInterpreterState_Get();
        if (_PyInterpreterState_GetEvalFrameFunc(interp) == pa_eval_frame) {
            _PyInterpreterState_SetEvalFrameFunc(interp, _PyEval_EvalFrameDefault);
        }
    }
}

int
pa_foreign_eval_frame(PyInterpreterState *interp, int count)
{
    if (_PyInterpreterState_GetEvalFrameFunc(interp) == _PyEval_EvalFrameDefault) {
        /* No other hook to serve.  The one that was there has gone back to the default:
         * pyadapt's own takes the slot again if still wanted (else pyadapt was disabled
         * while this frame ran, and the loop goes on as before). */
        if (pa_hook_installed) {
            set_hook_if_default(interp);
        }
        return 0;
    }
    if (count) {
        pa_count_fallback(PA_FB_FOREIGN_EVAL_FRAME);
    }
    return 1;
}

/* Compile `co` on first sight, or now if it was cold.  Never leaves an exception set: a code
 * object the compiler rejects gets a unit carrying the reason, so that it is not tried again.
 * Runs no Python code (the compiler is C), so it may be called from anywhere the GIL is held. */
pa_unit *
pa_get_or_compile(PyCodeObject *co)
{
    pa_unit *u = pa_unit_for_code(co);
    if (u != NULL && u->reject_reason != PA_FB_COLD) {
        return u;
    }
    pa_unit *cold = u;
    PyObject *et, *ev, *etb;
    PyErr_Fetch(&et, &ev, &etb);   /* the hook may be entered with an exception set (throw) */
    const char *err;
    pa_unit *made = pa_compile(co, &err);
    if (made == NULL) {
        made = cold != NULL ? cold : pa_unit_new(0, 0, 0);
        if (made == NULL) {
            PyErr_Restore(et, ev, etb);
            return NULL;
        }
        made->reject_reason = PA_FB_COMPILE_FAILED;
        made->reject_detail = err;
        if (made == cold) {
            PyErr_Restore(et, ev, etb);
            return cold;
        }
    }
    else {
        pa_stats.compiled++;
        if (cold != NULL) {
            pa_unit_adopt(cold, made);
            PyErr_Restore(et, ev, etb);
            return cold;
        }
    }
    if (pa_unit_attach(co, made) == 0) {
        u = made;
    }
    else {
        pa_unit_free(made);         /* out of memory: run natively this time */
    }
    PyErr_Restore(et, ev, etb);
    return u;
}

/* A frame of `co` (unit `u`: none yet, or cold) that the hook may leave to CPython's loop:
 * whole-process mode compiles a code object at its (compile_after + 1)-th entry.  Most code
 * of a program runs once or a few times (module and class bodies, set-up, a test's body):
 * CPython's loop runs it as well as pyadapt's would, without a unit to build and keep.
 * A function with a loop is compiled at its first entry: one frame of it may be the whole
 * program's work (main() around a hot loop, the timed function of a benchmark), and a frame
 * that started in CPython's loop stays there.  Module and class bodies are not functions
 * (no CO_OPTIMIZED): they run once by nature, loop or not.
 * Returns the unit to run (compiled) or the cold unit (reject_reason PA_FB_COLD). */
/* Whether `frame` runs the body of the __main__ module: the program itself (under
 * `-m module` or PYADAPT=1), which runs once by nature but is what pyadapt was asked to run,
 * and may hold the program's hot loop at its top level. */
static int
is_main_module_body(_PyInterpreterFrame *frame)
{
    if (PA_FRAME_CODE(frame)->co_flags & CO_OPTIMIZED || frame->f_locals != frame->f_globals
            || !PyDict_CheckExact(frame->f_globals)) {
        return 0;
    }
    /* PyDict_GetItem leaves an exception already set alone (a frame entered by throw()) */
    PyObject *name = PyDict_GetItem(frame->f_globals, &_Py_ID(__name__));
    return name != NULL && PyUnicode_Check(name) && _PyUnicode_EqualToASCIIString(name, "__main__");
}

static pa_unit *
enter_maybe_cold(_PyInterpreterFrame *frame, PyCodeObject *co, pa_unit *u)
{
    if (u == NULL) {
        if ((co->co_flags & CO_OPTIMIZED) && pa_code_has_loop(co) != 0) {
            return pa_get_or_compile(co);
        }
        if (is_main_module_body(frame)) {
            return pa_get_or_compile(co);
        }
        u = pa_unit_new_cold();
        if (u == NULL) {
            return pa_get_or_compile(co);
        }
        if (pa_unit_attach(co, u) < 0) {
            pa_unit_free(u);
            return pa_get_or_compile(co);
        }
    }
    if ((uint32_t)u->cold_entries < pa_config.compile_after) {
        u->cold_entries++;
        return u;
    }
    return pa_get_or_compile(co);
}

PyObject *
pa_eval_frame(PyThreadState *tstate, _PyInterpreterFrame *frame, int throwflag)
{
    PyCodeObject *co = PA_FRAME_CODE(frame);
    pa_unit *u = pa_unit_for_code(co);
    int wanted = tls_depth > 0 || global_enabled || (u != NULL && (u->flags & PA_UNIT_JIT));
    if (!wanted) {
        return _PyEval_EvalFrameDefault(tstate, frame, throwflag);
    }
    if (PA_TRACING_ACTIVE_FOR(tstate, co)) {
        /* Debuggers, coverage and profilers get CPython's loop and its events. */
        pa_count_fallback(PA_FB_TRACING);
        return _PyEval_EvalFrameDefault(tstate, frame, throwflag);
    }
    if (u == NULL || u->reject_reason == PA_FB_COLD) {
        /* Inside run() everything is compiled at once: the caller asked for pyadapt there
         * (and the tests' proofs that pyadapt ran something rely on it).  @jit units are
         * compiled when marked, so never cold. */
        u = pa_config.compile_after > 0 && tls_runs == 0 ? enter_maybe_cold(frame, co, u)
                                                         : pa_get_or_compile(co);
    }
    if (u == NULL || u->reject_reason != 0) {
        pa_count_fallback(u == NULL ? PA_FB_UNSUPPORTED : u->reject_reason);
        return _PyEval_EvalFrameDefault(tstate, frame, throwflag);
    }
    tls_depth++;
    PyObject *res = pa_execute(tstate, frame, throwflag, u);
    tls_depth--;
    return res;
}

/* ---- builtins on the module ---- */

/* run(func, *args, **kwargs) is func(*args, **kwargs) for the recursion limit: no level of
 * its own.  Whether a call of a builtin takes a level depends on the caller's call site --
 * CPython's generic call path (cfunction_enter_call) takes one, its specialized
 * PRECALL_BUILTIN_FAST[_WITH_KEYWORDS] and pyadapt's CALL_BUILTIN_FAST[_WITH_KEYWORDS] take
 * none -- so a builtin cannot give back "the level its call took": after a call site
 * specialized, run(f) went one frame deeper than f().  `run` is therefore declared
 * METH_VARARGS | METH_KEYWORDS, which neither specializer touches, and its vectorcall pointer
 * is this function (set in pa_core_init): every path to it (generic CALL, PyObject_Call,
 * functools.partial) reaches it without taking a level, as a call of a Python function does. */
static PyObject *
run_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    (void)callable;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs < 1) {
        PyErr_SetString(PyExc_TypeError,
                        "pyadapt.run() missing required argument: the function to call");
        return NULL;
    }
    PyObject *func = args[0];
    if (!PyCallable_Check(func)) {
        PyErr_Format(PyExc_TypeError,
                     "pyadapt.run() expects a callable (a Python function, method or other "
                     "callable object) as its first argument, not %.200s",
                     Py_TYPE(func)->tp_name);
        return NULL;
    }
    /* run(run, run, ..., f): nothing else on that chain takes a level, and the C stack
     * would overflow before any limit; a nested run takes one, as the Python function
     * `def run(f, *a): return f(*a)` would */
    PyThreadState *tstate = PyThreadState_GET();
    int nested = PyCFunction_Check(func) && PyVectorcall_Function(func) == run_vectorcall;
    if (nested && _Py_EnterRecursiveCallTstate(tstate, " while calling a Python object")) {
        return NULL;
    }
    tls_depth++;
    tls_runs++;
    active_runs++;
    install_hook();
    PyObject *res = PyObject_Vectorcall(func, args + 1, nargs - 1, kwnames);
    active_runs--;
    tls_runs--;
    tls_depth--;
    maybe_uninstall_hook();
    if (nested) {
        _Py_LeaveRecursiveCallTstate(tstate);
    }
    return res;
}

/* `run` as METH_VARARGS | METH_KEYWORDS: reached only if something calls the function
 * object's tp_call slot directly (its vectorcall pointer is run_vectorcall). */
static PyObject *run_function;   /* the module's `run` object (borrowed: the module keeps it) */

static PyObject *
mod_run(PyObject *self, PyObject *args, PyObject *kwargs)
{
    (void)self;
    return PyVectorcall_Call(run_function, args, kwargs);
}

static PyObject *
mod_enable(PyObject *self, PyObject *unused)
{
    (void)self; (void)unused;
    global_enabled = 1;
    install_hook();
    Py_RETURN_NONE;
}

static PyObject *
mod_disable(PyObject *self, PyObject *unused)
{
    (void)self; (void)unused;
    global_enabled = 0;
    maybe_uninstall_hook();
    Py_RETURN_NONE;
}

static PyObject *
mod_is_enabled(PyObject *self, PyObject *unused)
{
    (void)self; (void)unused;
    return PyBool_FromLong(global_enabled);
}

static PyObject *
mod_hook_installed(PyObject *self, PyObject *unused)
{
    (void)self; (void)unused;
    return PyBool_FromLong(
        _PyInterpreterState_GetEvalFrameFunc(PyInterpreterState_Get()) == pa_eval_frame);
}

/* The argument of a builtin that takes a code object: 1 if it is one, else 0 with TypeError. */
static int
check_code_arg(PyObject *arg)
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
    if (!check_code_arg(arg)) {
        return NULL;
    }
    /* a cold unit is the hook's bookkeeping, not a compiled unit: none for introspection */
    pa_unit *u = pa_unit_for_code((PyCodeObject *)arg);
    return PyLong_FromVoidPtr(u != NULL && u->reject_reason == PA_FB_COLD ? NULL : u);
}

/* A copy of a code object's site records (pa_site_record[], as bytes), taken in one step
 * under the GIL: the array itself may be reallocated by a specialization attempt, or freed
 * by configure(), between any two bytecodes of a Python reader (another thread, a __del__).
 * The strings the records point to live as long as the process (pa_sites.c). */
static PyObject *
mod_site_records(PyObject *self, PyObject *arg)
{
    (void)self;
    if (!check_code_arg(arg)) {
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
    if (!check_code_arg(arg)) {
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
    if (!check_code_arg(arg)) {
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
    if (!check_code_arg(arg)) {
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
    if (!check_code_arg(arg)) {
        return NULL;
    }
    pa_unit *u = pa_get_or_compile((PyCodeObject *)arg);
    if (u == NULL) {
        return PyErr_NoMemory();
    }
    u->flags |= PA_UNIT_JIT;
    have_jit = 1;
    install_hook();
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
                pa_unit_add_site_hits(u, hits);      /* counted before the sites start over */
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
            pa_unit_add_site_hits(u, hits);
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
    PA_PY_RECURSION_REMAINING(tstate) =
        PA_PY_RECURSION_LIMIT(tstate) + (PyFunction_Check(args[0]) ? 0 : PA_C_CALL_PY_LEVELS);
    PyObject *res = PyObject_Vectorcall(args[0], args + 1, nargs - 1, NULL);
    PA_PY_RECURSION_REMAINING(tstate) = saved_remaining;
    PA_CURRENT_FRAME(tstate) = below;
    return res;
}

static PyMethodDef pa_module_methods[] = {
    {"_call_toplevel", (PyCFunction)(void (*)(void))mod_call_toplevel, METH_FASTCALL,
     "_call_toplevel(func, *args): call func with no Python frames below it"},
    {"_hits_by_opcode", mod_hits_by_opcode, METH_NOARGS, "hits per opcode, all units"},
    {"_compiled_codes", mod_compiled_codes, METH_NOARGS, "code objects with a unit"},
    {"_reset_site_hits", mod_reset_site_hits, METH_NOARGS, "zero every site's hit count"},
    {"_configure", mod_configure, METH_VARARGS,
     "_configure(specialize, warmup): set the mode and re-quicken every unit"},
    {"run", (PyCFunction)(void (*)(void))mod_run, METH_VARARGS | METH_KEYWORDS,
     "run(func, /, *args, **kwargs): call func with pyadapt evaluating every Python frame"},
    {"enable", mod_enable, METH_NOARGS, "run every Python frame of the process under pyadapt"},
    {"disable", mod_disable, METH_NOARGS, "stop running the whole process under pyadapt"},
    {"is_enabled", mod_is_enabled, METH_NOARGS, "whether enable() is in force"},
    {"hook_installed", mod_hook_installed, METH_NOARGS, "whether the frame hook is set"},
    {"unit_address", mod_unit_address, METH_O,
     "address of a code object's unit, or 0 (none yet, or cold)"},
    {"site_records", mod_site_records, METH_O,
     "a copy of a code object's site records (pa_site_record[]) as bytes"},
    {"generic_code", mod_generic_code, METH_O,
     "a code object's generic code as pyadapt compiles it (bytes of uint32 words)"},
    {"compile", mod_compile, METH_O, "compile a code object (if not yet); its unit's address"},
    {"_compile_unattached", mod_compile_unattached, METH_O,
     "compile a code object into a new unit not attached to it; its address"},
    {"mark_jit", mod_mark_jit, METH_O, "compile a code object and always run it under pyadapt"},
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
    init_family_tables();
    PyObject *mod = PyImport_ImportModule("pyadapt._pyadapt");
    if (mod == NULL) {
        PyErr_Clear();
        goto done;
    }
    rc = PyModule_AddFunctions(mod, pa_module_methods);
    if (rc == 0) {
        /* run: called through run_vectorcall, which takes no recursion level (see there) */
        run_function = PyObject_GetAttrString(mod, "run");
        if (run_function == NULL || !PyCFunction_Check(run_function)) {
            rc = -1;
        }
        else {
            ((PyCFunctionObject *)run_function)->vectorcall = run_vectorcall;
        }
        Py_XDECREF(run_function);     /* the module keeps it alive */
    }
    pa_units_init();
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
