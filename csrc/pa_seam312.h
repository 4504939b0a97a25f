/* pa_seam312.h -- the version seam for CPython 3.12 (the names are pa_seam311.h's; what
 * differs from 3.11 is said where it differs).  pa_frame312.c holds its out-of-line half.
 */
#ifndef PA_SEAM312_H
#define PA_SEAM312_H

#include "internal/pycore_long.h"
#include "internal/pycore_range.h"

/* ---- frames: fields under version-neutral names ---- */

#define PA_FRAME_CODE(f) ((f)->f_code)
#define PA_FRAME_FUNC(f) ((PyFunctionObject *)(f)->f_funcobj)
/* The last instruction the frame ran (what f_lasti shows): 3.11 and 3.12 keep a pointer to
 * it (3.13's instr_ptr is the next one to run). */
#define PA_FRAME_LAST_INSTR(f) ((f)->prev_instr)
#define PA_FRAME_SET_LAST_INSTR(f, p) ((f)->prev_instr = (p))
/* Fill in a new frame's specials (function, code, globals, builtins; locals `locals`, which
 * 3.12's _PyFrame_Initialize steals and 3.11's borrowed). */
#define PA_FRAME_INIT_SPECIALS(f, func, locals, code) \
    _PyFrame_Initialize((f), (func), Py_XNewRef(locals), (code), (code)->co_nlocalsplus)

/* CPython offset (in code units) of the last inline cache entry of an instruction, relative
 * to it: a caller suspended in a call 3.12 inlines shows this as its f_lasti. */
#define PA_CPY_CALL_LAST_CACHE 3
#define PA_CPY_LOAD_ATTR_LAST_CACHE 9
#define PA_CPY_BINARY_SUBSCR_LAST_CACHE 1

/* ---- dicts ---- */

/* 3.12's dicts tell their watchers of every change: STORE_ATTR_WITH_HINT stores through the
 * dict API. */
#define PA_DICT_STORE_IN_PLACE 0
#define PA_DICT_CHANGED(d) ((void)(d))

/* ---- the thread state ---- */

/* The thread's current frame (an lvalue). */
#define PA_CURRENT_FRAME(tstate) ((tstate)->cframe->current_frame)
/* The Python recursion counters (lvalues): 3.12 counts Python frames apart from C levels. */
#define PA_PY_RECURSION_REMAINING(tstate) ((tstate)->py_recursion_remaining)
#define PA_PY_RECURSION_LIMIT(tstate) ((tstate)->py_recursion_limit)
/* ... and the one C code takes a level of (an lvalue) */
#define PA_C_RECURSION_REMAINING(tstate) ((tstate)->c_recursion_remaining)

/* Out of line: the Python recursion limit was reached (RecursionError, or a fatal error when
 * already handling one): -1, or 0 within the headroom. */
int pa_py_recursion_exceeded(PyThreadState *tstate);
/* A frame's level of the recursion limit: 0, or 1 with RecursionError set (the level is
 * counted all the same, as CPython's loop does, so that leaving it balances). */
static PA_ALWAYS_INLINE int
pa_enter_py_level(PyThreadState *tstate)
{
    return tstate->py_recursion_remaining-- <= 0 && pa_py_recursion_exceeded(tstate) != 0;
}
#define pa_leave_py_level(tstate) ((tstate)->py_recursion_remaining++)

/* The loop's link into the thread while it runs (pa_loop_enter, pa_frames.h): 3.12's
 * _PyCFrame holds the current frame only.  CPython's own loop also links an entry frame
 * owned by the C stack below the frame it runs; pyadapt's needs none (frame walks skip such
 * frames). */
#define PA_LINK_INHERIT(link, prev) ((void)(link), (void)(prev))
#define PA_LINK_HAND_BACK(link, prev) ((void)(link), (void)(prev))
#define PA_LOOP_SET_CURRENT(link, f) ((link).current_frame = (f))

/* builtins.__import__ as the interpreter keeps it (import_name's fast path) */
#define PA_INTERP_IMPORT_FUNC(interp) ((interp)->imports.import_func)

/* ---- tracing and monitoring ---- */

/* Must frames go to CPython's loop?  On 3.12 tracers and profilers are sys.monitoring tools
 * (sys.settrace is tool 7, sys.setprofile 6, cProfile 2 with no c_profilefunc): any tool
 * with a global event, or local events on this code object, sends the frame there.  The
 * answer for the global events is recomputed when the interpreter's monitoring version
 * moves (every change of events bumps it). */
extern uint64_t pa_monitoring_seen_version;
extern int pa_monitoring_global;
int pa_monitoring_recompute(PyInterpreterState *interp);
static PA_ALWAYS_INLINE int
pa_monitoring_on(PyInterpreterState *interp)
{
    return interp->monitoring_version == pa_monitoring_seen_version
           ? pa_monitoring_global : pa_monitoring_recompute(interp);
}
int pa_monitoring_local(PyCodeObject *co);
#define PA_TRACING_ACTIVE_FOR(tstate, co) \
    (pa_monitoring_on((tstate)->interp) || pa_monitoring_local(co))
#define PA_TRACING_ACTIVE(tstate) pa_monitoring_on((tstate)->interp)
#define PA_LOOP_TRACING(tstate, link) pa_monitoring_on((tstate)->interp)
/* 3.12 sends a tracer's events through sys.monitoring, which CPython's loop raises from the
 * frame's instrumented code once it runs there: pyadapt sends none itself. */
#define PA_TRACER_SET(tstate) 0
#define pa_trace_exception(tstate, frame) ((void)0)
#define pa_trace_return_with_exception(tstate, frame) ((void)0)

/* ---- the eval breaker ---- */

#define PA_EVAL_BREAKER(tstate) _Py_atomic_load_relaxed(&(tstate)->interp->ceval.eval_breaker)
/* 3.12's garbage collector runs from the breaker (allocation sets gc_scheduled, which
 * Py_MakePendingCalls leaves alone): run the collection CPython's loop would; 0 or -1 */
int pa_run_scheduled_gc(PyThreadState *tstate);
/* the breaker recomputed from what is still pending (CPython's COMPUTE_EVAL_BREAKER) */
void pa_recompute_eval_breaker(PyInterpreterState *interp);
#define pa_async_exc_taken(interp) \
    ((interp)->ceval.pending.async_exc = 0, pa_recompute_eval_breaker(interp))

/* ---- the hook's exit contract ---- */

/* The entry frame returned or raised (the loop is unlinked from the thread already): on
 * 3.12 whoever evaluates a frame clears it, and pops it if the thread owns it
 * (_PyEval_Vector and gen_send_ex2 leave that to the eval function, and so to the hook). */
void pa_finish_entry_frame(PyThreadState *tstate, _PyInterpreterFrame *frame, int raised);
/* The entry frame's data moved into a generator (RETURN_GENERATOR): pop it. */
#define pa_finish_moved_entry_frame(tstate, frame) pa_pop_frame((tstate), (frame))

/* ---- generators ---- */

/* 3.12's generator has no gi_code: its frame's code reference is the generator's, and stays
 * until the generator dies */
#define PA_GEN_SET_CODE(gen, code) ((void)(gen), (void)(code))
#define PA_GEN_FRAME_RELEASE_CODE(gen_frame) ((void)(gen_frame))
/* 3.12's compiler wraps a generator's body in a handler that turns a StopIteration leaving it
 * into a RuntimeError (CALL_INTRINSIC_1 STOPITERATION_ERROR) */
#define PA_GEN_BODY_CONVERTS_STOPITERATION 1
/* RESUME, as a suspended generator's next instruction shows it */
#define PA_IS_RESUME(op) ((op) == RESUME || (op) == INSTRUMENTED_RESUME)
#define PA_CODEUNIT_OPCODE(u) ((u).op.code)
#define PA_CODEUNIT_OPARG(u) ((u).op.arg)

#define PA_GEN_CODE(gen) (PA_GEN_FRAME(gen)->f_code)    /* 3.12 has no gi_code */

/* YIELD_VALUE: the generator's frame is suspended.  On 3.12 the eval loop itself restores
 * the exception state and unlinks the frame, whoever resumed it. */
static PA_ALWAYS_INLINE void
pa_gen_suspend(PyThreadState *tstate, _PyInterpreterFrame *gen_frame, int to_loop_caller)
{
    (void)to_loop_caller;
    PyGenObject *gen = _PyFrame_GetGenerator(gen_frame);
    gen->gi_frame_state = FRAME_SUSPENDED;
    tstate->exc_info = gen->gi_exc_state.previous_item;
    gen->gi_exc_state.previous_item = NULL;
    gen_frame->previous = NULL;
}

/* ---- objects ---- */

/* ints of at most one digit, either sign, as C longs; non-negative ones as indices (3.12:
 * compact ints, the size and sign in lv_tag) */
#define PA_IS_SMALL_INT(o) _PyLong_IsCompact((PyLongObject *)(o))
#define PA_SMALL_INT_VALUE(o) ((long)_PyLong_CompactValue((PyLongObject *)(o)))
#define PA_IS_SMALL_INDEX(o) _PyLong_IsNonNegativeCompact((PyLongObject *)(o))
#define PA_IS_SMALL_POSITIVE(o) \
    (((PyLongObject *)(o))->long_value.lv_tag == (1 << _PyLong_NON_SIZE_BITS))
#define PA_SMALL_INDEX_VALUE(o) ((Py_ssize_t)((PyLongObject *)(o))->long_value.ob_digit[0])

/* An instance's values array (NULL: it has a dict instead) and its managed dict: one tagged
 * slot on 3.12 */
static PA_ALWAYS_INLINE PyDictValues *
pa_instance_values(PyObject *o)
{
    PyDictOrValues dv = *_PyObject_DictOrValuesPointer(o);
    return _PyDictOrValues_IsValues(dv) ? _PyDictOrValues_GetValues(dv) : NULL;
}
static PA_ALWAYS_INLINE PyDictObject *
pa_managed_dict(PyObject *o)
{
    PyDictOrValues dv = *_PyObject_DictOrValuesPointer(o);
    return _PyDictOrValues_IsValues(dv) ? NULL : (PyDictObject *)_PyDictOrValues_GetDict(dv);
}
#define PA_INSTANCE_VALUES(o) pa_instance_values(o)
#define PA_MANAGED_DICT(o) pa_managed_dict(o)

/* The range iterator (pycore_range.h). */
typedef _PyRangeIterObject pa_rangeiter;
/* The range iterator's next value: 1 and *value, or 0 when it is exhausted. */
static PA_ALWAYS_INLINE int
pa_rangeiter_next(pa_rangeiter *r, long *value)
{
    if (r->len > 0) {
        *value = r->start;
        r->start = (long)((unsigned long)r->start + (unsigned long)r->step);
        r->len--;
        return 1;
    }
    return 0;
}

/* Hand a frame this loop was running to CPython's loop (tracing began): its result.  3.12's
 * loop clears and pops the frame itself, the entry frame as any other. */
static inline PyObject *
pa_delegate_frame(PyThreadState *tstate, _PyInterpreterFrame *frame, int entry)
{
    (void)entry;
    return _PyEval_EvalFrameDefault(tstate, frame, 0);
}

#endif
