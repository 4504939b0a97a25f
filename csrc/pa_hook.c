/* pa_hook.c -- the PEP 523 frame-evaluation hook: which frames pyadapt's loop evaluates,
 * when a code object is compiled (on first sight, or after compile_after cold entries), and
 * the builtins that switch the hook on and off (run, enable, disable).
 *
 * The metadata tables are in pa_opinfo.c, configuration and counters in pa_state.c, the
 * unit store in pa_units.c, the other builtins of the module in pa_module.c.
 */
#include "pa_internal.h"
#include "pa_caches.h"

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

/* A call from pyadapt's loop to a function whose code is cold goes through C (PyObject_Vectorcall,
 * then this hook), like a call made by a frame in CPython's loop: the compile_after rule
 * then holds for code that only hot code calls, where compiling at the call would make a
 * unit for every function a hot loop calls once or twice (pytest over pyflakes: 2,232
 * units -> see docs/architecture.md).  A function with a loop is compiled by the hook at
 * that first entry, and recursion through C stays bounded: each entry through the hook
 * counts, so at most compile_after frames of one code object go through C before it is
 * compiled and its calls inline. */
pa_unit *
pa_unit_for_call(PyCodeObject *co)
{
    pa_unit *u = pa_unit_for_code(co);
    if (u != NULL && u->reject_reason != PA_FB_COLD) {
        return u;
    }
    if (pa_config.compile_after > 0 && tls_runs == 0
            && (u == NULL || (uint32_t)u->cold_entries < pa_config.compile_after)) {
        return u;
    }
    return pa_get_or_compile(co);
}

/* Every case but the common one (pa_eval_frame below): a frame outside pyadapt's extent, a
 * tracer, code not compiled yet or cold or rejected, the extent's first frame. */
static __attribute__((noinline)) PyObject *
eval_frame_slow(PyThreadState *tstate, _PyInterpreterFrame *frame, int throwflag)
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

/* The hook.  Its common case -- inside the extent already (so the depth needs no count: it
 * is > 0 before and after), no tracer, the code's unit compiled and in its home slot -- is
 * a tail call of the loop: no frame of its own, no registers saved, no depth written (a
 * generator resumed by sum() or a key function called by sorted() enter here each time). */
PyObject *
pa_eval_frame(PyThreadState *tstate, _PyInterpreterFrame *frame, int throwflag)
{
    PyCodeObject *co = PA_FRAME_CODE(frame);
    pa_unit_slot *slot = &pa_units.table[pa_code_hash(co, pa_units.shift)];
    if (__builtin_expect(slot->code == co && tls_depth > 0 && PA_TRACING_SURELY_OFF_FOR(tstate, co)
                         && slot->unit->reject_reason == 0, 1)) {
        return pa_execute(tstate, frame, throwflag, slot->unit);
    }
    return eval_frame_slow(tstate, frame, throwflag);
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
    /* f() from Python code runs inline; run(f) enters a loop through C, which takes C levels
     * (3.12): given back for the call when f is a Python function or a method of one */
    PyObject *target = PyMethod_Check(func) ? PyMethod_GET_FUNCTION(func) : func;
    int entry_credit = PyFunction_Check(target) ? PA_LOOP_ENTRY_C_LEVELS : 0;
    tls_depth++;
    tls_runs++;
    active_runs++;
    install_hook();
    PA_C_RECURSION_REMAINING(tstate) += entry_credit;
    PyObject *res = PyObject_Vectorcall(func, args + 1, nargs - 1, kwnames);
    PA_C_RECURSION_REMAINING(tstate) -= entry_credit;
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

/* A @jit unit exists (pa_module.c's mark_jit): the hook stays installed for good. */
void
pa_hook_keep_for_jit(void)
{
    have_jit = 1;
    install_hook();
}

/* ---- perf's stack trampoline (3.12+) ----
 * sys.activate_stack_trampoline("perf") installs CPython's trampoline as the eval-frame
 * function, and refuses ("a custom eval frame is already present") while any other function
 * holds the slot -- pyadapt's, whenever pyadapt runs anything.  pyadapt gives the slot up for
 * it: sys's two functions are replaced by builtins of the same name, doc and __self__ that
 * put the default back in the slot before calling CPython's own, and pyadapt's hook back if
 * the activation failed or when the trampoline is deactivated.  While the trampoline holds
 * the slot, frames run in CPython's loop, which is what perf can see (a frame pyadapt's loop
 * is in keeps running there; its calls go through the trampoline: foreign_eval_frame in the
 * stats). */
static PyObject *trampoline_activate;     /* sys's own functions (strong) */
static PyObject *trampoline_deactivate;

static PyObject *
step_aside_for_trampoline(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    PyInterpreterState *interp = PyInterpreterState_Get();
    int ours = _PyInterpreterState_GetEvalFrameFunc(interp) == pa_eval_frame;
    if (ours) {
        _PyInterpreterState_SetEvalFrameFunc(interp, _PyEval_EvalFrameDefault);
    }
    PyObject *res = PyObject_Vectorcall(trampoline_activate, args, nargs, NULL);
    if (res == NULL && ours) {
        set_hook_if_default(interp);
    }
    return res;
}

static PyObject *
take_slot_back_after_trampoline(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    PyObject *res = PyObject_Vectorcall(trampoline_deactivate, args, nargs, NULL);
    if (res != NULL && pa_hook_installed) {
        set_hook_if_default(PyInterpreterState_Get());
    }
    return res;
}

static PyMethodDef trampoline_defs[2] = {
    {"activate_stack_trampoline", (PyCFunction)(void (*)(void))step_aside_for_trampoline,
     METH_FASTCALL, NULL},
    {"deactivate_stack_trampoline",
     (PyCFunction)(void (*)(void))take_slot_back_after_trampoline, METH_FASTCALL, NULL},
};

/* Replace sys.<def's name> (a builtin of sys's) by def's function, keeping the original in
 * *orig.  0, or -1 with an exception set; a sys without the function is left alone. */
static int
wrap_sys_function(PyObject *sys, PyMethodDef *def, PyObject **orig)
{
    PyObject *f = PyObject_GetAttrString(sys, def->ml_name);
    if (f == NULL) {
        PyErr_Clear();
        return 0;
    }
    if (!PyCFunction_Check(f)) {
        Py_DECREF(f);       /* replaced by someone else already: not ours to wrap */
        return 0;
    }
    def->ml_doc = ((PyCFunctionObject *)f)->m_ml->ml_doc;   /* CPython's, static */
    PyObject *modname = PyUnicode_FromString("sys");
    PyObject *wrapper = modname == NULL ? NULL : PyCFunction_NewEx(def, sys, modname);
    Py_XDECREF(modname);
    if (wrapper == NULL || PyObject_SetAttrString(sys, def->ml_name, wrapper) < 0) {
        Py_XDECREF(wrapper);
        Py_DECREF(f);
        return -1;
    }
    Py_DECREF(wrapper);
    *orig = f;
    return 0;
}

static int
wrap_trampoline_functions(void)
{
    if (!PA_SEAM_STACK_TRAMPOLINE || trampoline_activate != NULL) {
        return 0;
    }
    PyObject *sys = PyImport_ImportModule("sys");
    if (sys == NULL) {
        return -1;
    }
    int rc = wrap_sys_function(sys, &trampoline_defs[0], &trampoline_activate);
    if (rc == 0) {
        rc = wrap_sys_function(sys, &trampoline_defs[1], &trampoline_deactivate);
    }
    Py_DECREF(sys);
    return rc;
}

/* The builtins that drive the hook (pa_module.c registers them with the others). */
PyMethodDef pa_hook_methods[] = {
    {"run", (PyCFunction)(void (*)(void))mod_run, METH_VARARGS | METH_KEYWORDS,
     "run(func, /, *args, **kwargs): call func with pyadapt evaluating every Python frame"},
    {"enable", mod_enable, METH_NOARGS, "run every Python frame of the process under pyadapt"},
    {"disable", mod_disable, METH_NOARGS, "stop running the whole process under pyadapt"},
    {"is_enabled", mod_is_enabled, METH_NOARGS, "whether enable() is in force"},
    {"hook_installed", mod_hook_installed, METH_NOARGS, "whether the frame hook is set"},
    {NULL, NULL, 0, NULL},
};

/* After the builtins are on `mod`: `run` is called through run_vectorcall, which takes no
 * recursion level (see there).  -1 if the module has no such `run`. */
int
pa_hook_init(PyObject *mod)
{
    run_function = PyObject_GetAttrString(mod, "run");
    if (run_function == NULL || !PyCFunction_Check(run_function)) {
        Py_XDECREF(run_function);
        run_function = NULL;
        return -1;
    }
    ((PyCFunctionObject *)run_function)->vectorcall = run_vectorcall;
    Py_DECREF(run_function);      /* the module keeps it alive */
    return wrap_trampoline_functions();
}
