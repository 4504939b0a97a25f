/* pa_seam312plus.h -- what the seams of CPython 3.12 and later share (included at the end of
 * pa_seam312.h and pa_seam313.h, which define PA_MONITORING_VERSION): the recursion counters,
 * the sys.monitoring gate, generators' bookkeeping, compact ints, the range iterator, handing
 * a frame to CPython's loop.
 */
#ifndef PA_SEAM312PLUS_H
#define PA_SEAM312PLUS_H

#include "internal/pycore_long.h"
#include "internal/pycore_range.h"

/* ---- the thread state ---- */

/* The Python recursion counters (lvalues): 3.12+ count Python frames apart from C levels. */
#define PA_PY_RECURSION_REMAINING(tstate) ((tstate)->py_recursion_remaining)
#define PA_PY_RECURSION_LIMIT(tstate) ((tstate)->py_recursion_limit)
/* ... and the one C code takes a level of (an lvalue) */
#define PA_C_RECURSION_REMAINING(tstate) ((tstate)->c_recursion_remaining)
/* Levels of the Python limit a call of a C function (exec) takes: none, its level is C's. */
#define PA_C_CALL_PY_LEVELS 0

/* What `case C()` with C not a class raises (TypeError; 3.11: "must be a type") */
#define PA_MATCH_NOT_A_CLASS_MSG "called match pattern must be a class"

/* The key of the KeyError a ** merge raised, borrowed, from the fetched value `val` (always
 * the exception itself on 3.12+: its args a 1-tuple of the key), or NULL. */
#define PA_MERGE_KEYERROR_KEY(val) \
    ((val) != NULL && PyTuple_Check(((PyBaseExceptionObject *)(val))->args) \
     && PyTuple_GET_SIZE(((PyBaseExceptionObject *)(val))->args) == 1 \
     ? PyTuple_GET_ITEM(((PyBaseExceptionObject *)(val))->args, 0) : NULL)

/* Out of line (pa_frames.c: _Py_CheckRecursiveCallPy is exported by neither version): the
 * Python recursion limit was reached (RecursionError, or a fatal error when already handling
 * one): -1, or 0 within the headroom. */
#define PA_SEAM_PY_RECURSION_COUNTER 1
/* sys.activate_stack_trampoline: perf's trampoline is an eval-frame function of its own
 * (pa_hook.c steps aside for it) */
#define PA_SEAM_STACK_TRAMPOLINE 1
int pa_py_recursion_exceeded(PyThreadState *tstate);
/* A frame's level of the recursion limit: 0, or 1 with RecursionError set (the level is
 * counted all the same, as CPython's loop does, so that leaving it balances). */
static PA_ALWAYS_INLINE int
pa_enter_py_level(PyThreadState *tstate)
{
    return tstate->py_recursion_remaining-- <= 0 && pa_py_recursion_exceeded(tstate) != 0;
}
#define pa_leave_py_level(tstate) ((tstate)->py_recursion_remaining++)

/* `from m import name` failed (the ImportError is set): 3.12's and 3.13's import_from
 * name `name` in the error (name_from, for the traceback's "Did you mean"), through a function
 * neither exports */
static inline void
pa_import_error_name_from(PyObject *name)
{
    PyObject *exc = PyErr_GetRaisedException();
    if (exc != NULL && PyErr_GivenExceptionMatches(exc, PyExc_ImportError)) {
        Py_XSETREF(((PyImportErrorObject *)exc)->name_from, Py_NewRef(name));
    }
    PyErr_SetRaisedException(exc);
}
#define PA_IMPORT_ERROR_NAME_FROM(name) pa_import_error_name_from(name)

/* ---- tracing and monitoring ---- */

/* The seam's PA_MONITORING_VERSION at which no tool listened to a global event, or
 * PA_MONITORING_NOT_QUIET while one does (or before the first answer): the loop asks at every
 * inline call and return, and the common answer is one compare with it.  Any other version
 * asks pa_monitoring_recompute, which reads the interpreter's tools and sets it again (while
 * a tool listens, the hook hands frames to CPython's loop, so the loop seldom asks then). */
extern uint64_t pa_monitoring_quiet_version;
#define PA_MONITORING_NOT_QUIET UINT64_MAX
int pa_monitoring_recompute(PyInterpreterState *interp);
static PA_ALWAYS_INLINE int
pa_monitoring_on(PyInterpreterState *interp)
{
    return (uint64_t)PA_MONITORING_VERSION(interp) == pa_monitoring_quiet_version
           ? 0 : pa_monitoring_recompute(interp);
}
/* Does a tool listen to events local to co?  Most code objects have no monitoring data: that
 * answer is inline. */
int pa_monitoring_local_tools(PyCodeObject *co);
static PA_ALWAYS_INLINE int
pa_monitoring_local(PyCodeObject *co)
{
    return co->_co_monitoring != NULL && pa_monitoring_local_tools(co);
}
#define PA_TRACING_ACTIVE_FOR(tstate, co) \
    (pa_monitoring_on((tstate)->interp) || pa_monitoring_local(co))
#define PA_TRACING_ACTIVE(tstate) pa_monitoring_on((tstate)->interp)
/* The hook's common case, with no call (it asks at every entry from C: a generator resumed by
 * set() or sum(), a function map() calls): nothing changed since the last answer, which was
 * "off", and co has no monitoring data of its own; else the full answer, out of line */
#define PA_TRACING_SURELY_OFF_FOR(tstate, co) \
    ((uint64_t)PA_MONITORING_VERSION((tstate)->interp) == pa_monitoring_quiet_version \
     && (co)->_co_monitoring == NULL)
#define PA_LOOP_TRACING(tstate, link) pa_monitoring_on((tstate)->interp)
/* 3.12+ send a tracer's events through sys.monitoring, which CPython's loop raises from the
 * frame's instrumented code once it runs there: pyadapt sends none itself, but those of an
 * exception in a frame its loop runs (a debugger set the frame's f_trace, as
 * pdb.set_trace() does for its caller; a callee set sys.settrace): sys.settrace is tool 7 of
 * sys.monitoring, whose RAISE and PY_UNWIND callbacks call the thread's c_tracefunc with
 * 'exception' and 'return'.  pyadapt calls it the same way, then CPython's loop takes the
 * frame over at the handler (sys.settrace instrumented the code of every executing frame)
 * and sends the rest, line events included (pa_frames.c). */
#define PA_SEAM_TRACER_EVENTS 1
#define PA_TRACER_SET(tstate) ((tstate)->c_tracefunc != NULL)
void pa_trace_exception(PyThreadState *tstate, _PyInterpreterFrame *frame);
void pa_trace_return_with_exception(PyThreadState *tstate, _PyInterpreterFrame *frame);

/* ---- generators ---- */

/* 3.12+'s generator has no gi_code: its frame's code reference is the generator's, and stays
 * until the generator dies */
#define PA_GEN_SET_CODE(gen, code) ((void)(gen), (void)(code))
#define PA_GEN_FRAME_RELEASE_CODE(gen_frame) ((void)(gen_frame))
/* 3.12+'s compiler wraps a generator's body in a handler that turns a StopIteration leaving it
 * into a RuntimeError (CALL_INTRINSIC_1 STOPITERATION_ERROR) */
#define PA_GEN_BODY_CONVERTS_STOPITERATION 1
/* RESUME, as a suspended generator's next instruction shows it */
#define PA_IS_RESUME(op) ((op) == RESUME || (op) == INSTRUMENTED_RESUME)
#define PA_CODEUNIT_OPCODE(u) ((u).op.code)
#define PA_CODEUNIT_OPARG(u) ((u).op.arg)

/* YIELD_VALUE: the generator's frame is suspended.  On 3.12+ the eval loop itself restores
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

/* ints of at most one digit, either sign, as C longs; non-negative ones as indices (3.12+:
 * compact ints, the size and sign in lv_tag) */
#define PA_IS_SMALL_INT(o) _PyLong_IsCompact((PyLongObject *)(o))
#define PA_SMALL_INT_VALUE(o) ((long)_PyLong_CompactValue((PyLongObject *)(o)))
#define PA_IS_SMALL_INDEX(o) _PyLong_IsNonNegativeCompact((PyLongObject *)(o))
#define PA_IS_SMALL_POSITIVE(o) \
    (((PyLongObject *)(o))->long_value.lv_tag == (1 << _PyLong_NON_SIZE_BITS))
#define PA_SMALL_INDEX_VALUE(o) ((Py_ssize_t)((PyLongObject *)(o))->long_value.ob_digit[0])
/* an int that is 0 (its truth) */
#define PA_LONG_IS_ZERO(o) _PyLong_IsZero((PyLongObject *)(o))
/* An int of at most two digits (|value| < 2**60), either sign: 1 and its value, else 0. */
static PA_ALWAYS_INLINE int
pa_long_two_digits(PyObject *o, long *value)
{
    PyLongObject *l = (PyLongObject *)o;
    if (_PyLong_IsCompact(l)) {
        *value = (long)_PyLong_CompactValue(l);
        return 1;
    }
    if (_PyLong_DigitCount(l) != 2) {
        return 0;
    }
    const digit *d = l->long_value.ob_digit;
    *value = _PyLong_NonCompactSign(l) * ((long)d[0] | (long)d[1] << PyLong_SHIFT);
    return 1;
}

/* The runtime's one-character str of a latin-1 code point `c` (< 256), borrowed: the object
 * str's own subscript, chr() and the decoders return for it (static, never freed). */
#define PA_LATIN1_CHAR(c) \
    ((c) < 128 ? (PyObject *)&_Py_SINGLETON(strings).ascii[(c)] \
               : (PyObject *)&_Py_SINGLETON(strings).latin1[(c) - 128])

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
 * and 3.13's loops clear and pop the frame themselves, the entry frame as any other. */
static inline PyObject *
pa_delegate_frame(PyThreadState *tstate, _PyInterpreterFrame *frame, int entry)
{
    (void)entry;
    return _PyEval_EvalFrameDefault(tstate, frame, 0);
}

/* a type's own dict, a new reference: a static builtin type keeps it in the interpreter's
 * state, not in tp_dict */
#define PA_TYPE_DICT(tp) PyType_GetDict(tp)

#endif
