/* pa_seam311.h -- the version seam for CPython 3.11: everything the shared core (the loop,
 * the hook, the specializer) needs to know about 3.11's frames, thread state, generators and
 * object layouts, under version-neutral names.  pa_internal.h includes the seam of the
 * running version (the one #if on PY_VERSION_HEX); pa_frame311.c holds its out-of-line half.
 * The hot parts (frame push, clear and pop at every inline call and return, field accessors)
 * are inline here, so a call costs no C call into the seam for them.
 */
#ifndef PA_SEAM311_H
#define PA_SEAM311_H

/* ---- frames: fields under version-neutral names ---- */

#define PA_FRAME_CODE(f) ((f)->f_code)
#define PA_FRAME_FUNC(f) ((f)->f_func)
/* The last instruction the frame ran (what f_lasti shows): 3.11 and 3.12 keep a pointer to
 * it (3.13's instr_ptr is the next one to run). */
#define PA_FRAME_LAST_INSTR(f) ((f)->prev_instr)
#define PA_FRAME_SET_LAST_INSTR(f, p) ((f)->prev_instr = (p))
/* Fill in a new frame's specials (function, code, globals, builtins; locals `locals`). */
#define PA_FRAME_INIT_SPECIALS(f, func, locals, code) \
    _PyFrame_InitializeSpecials((f), (func), (locals), (code)->co_nlocalsplus)

/* CPython offset (in code units) of the last inline cache entry of an instruction, relative
 * to it: a caller suspended in a call 3.11 inlines shows this as its f_lasti. */
#define PA_CPY_CALL_LAST_CACHE 4
#define PA_CPY_LOAD_ATTR_LAST_CACHE 4
#define PA_CPY_BINARY_SUBSCR_LAST_CACHE 4
/* A property getter or __getattribute__ that LOAD_ATTR runs inline: 3.11 calls them in C,
 * so the caller shows the LOAD_ATTR itself (return_to_caller finishes the instruction). */
#define PA_CPY_GETTER_SHOWS 0
/* A caller suspended in a generator it runs inline (FOR_ITER_GEN, SEND_GEN, which pyadapt
 * adds to 3.11): FOR_ITER and SEND have no cache on 3.11, so the instruction itself. */
#define PA_CPY_FOR_ITER_LAST_CACHE 0
#define PA_CPY_SEND_LAST_CACHE 0

/* ---- code ---- */

/* The compiler reads co_code_adaptive itself (pa_compile.c, code_units): 3.11 specializes
 * in place without changing opargs or cache sizes, and has no instrumented opcodes. */
#define PA_COMPILE_READS_QUICKENED_CODE 1
/* sys.activate_stack_trampoline (perf's frames) exists from 3.12 */
#define PA_SEAM_STACK_TRAMPOLINE 0

/* ---- dicts ---- */

/* STORE_ATTR_WITH_HINT replaces a value in the dict's entry itself, as 3.11's loop does, and
 * gives the dict a new PEP 509 tag (ma_version_tag).  3.11 takes its tags from a global
 * counter libpython does not export; readers of a tag only compare one they saved with the
 * current one, so a tag needs to be unique, not ordered: pyadapt's own start at 2^62, which
 * CPython's counter (one per dict mutation, from 0) does not reach (pa_frame311.c). */
#define PA_DICT_STORE_IN_PLACE 1
extern uint64_t pa_dict_version;
#define PA_DICT_CHANGED(d) ((d)->ma_version_tag = ++pa_dict_version)

/* ---- the thread state ---- */

/* The thread's current frame (an lvalue). */
#define PA_CURRENT_FRAME(tstate) ((tstate)->cframe->current_frame)
/* The Python recursion counters (lvalues): 3.11 has one counter for Python and C levels. */
#define PA_PY_RECURSION_REMAINING(tstate) ((tstate)->recursion_remaining)
#define PA_PY_RECURSION_LIMIT(tstate) ((tstate)->recursion_limit)
/* ... and the one C code takes a level of (an lvalue) */
#define PA_C_RECURSION_REMAINING(tstate) ((tstate)->recursion_remaining)
/* Levels of the Python limit a call of a C function (exec) takes: its one level. */
#define PA_C_CALL_PY_LEVELS 1

/* What `case C()` with C not a class raises (TypeError) */
#define PA_MATCH_NOT_A_CLASS_MSG "called match pattern must be a type"

/* The key of the KeyError a ** merge raised (dict_merge's _PyErr_SetKeyError), borrowed, from
 * the fetched value `val`, or NULL if the KeyError is not one: 3.11 leaves it unnormalized,
 * the value a 1-tuple of the key. */
#define PA_MERGE_KEYERROR_KEY(val) \
    ((val) != NULL && PyTuple_Check(val) && PyTuple_GET_SIZE(val) == 1 \
     ? PyTuple_GET_ITEM((val), 0) : NULL)

/* A frame's level of the recursion limit: 0, or 1 with RecursionError set (the level is
 * counted all the same, as CPython's loop does, so that leaving it balances). */
static PA_ALWAYS_INLINE int
pa_enter_py_level(PyThreadState *tstate)
{
    if (_Py_EnterRecursiveCallTstate(tstate, "")) {
        tstate->recursion_remaining--;
        return 1;
    }
    return 0;
}
#define pa_leave_py_level(tstate) _Py_LeaveRecursiveCallTstate(tstate)

/* The loop's link into the thread while it runs (pa_loop_enter, pa_frames.h): 3.11's loop
 * keeps a _PyCFrame on the C stack, with the current frame and the use_tracing flag, which
 * goes back to the link below when the loop leaves. */
#define PA_LINK_INHERIT(link, prev) ((link)->use_tracing = (prev)->use_tracing)
#define PA_LINK_HAND_BACK(link, prev) ((prev)->use_tracing = (link)->use_tracing)
#define PA_LOOP_SET_CURRENT(link, f) ((link).cframe.current_frame = (f))

/* builtins.__import__ as the interpreter keeps it (import_name's fast path) */
#define PA_INTERP_IMPORT_FUNC(interp) ((interp)->import_func)
/* a type's own dict, a new reference (3.12+ keeps a static builtin type's in the interpreter) */
#define PA_TYPE_DICT(tp) Py_XNewRef((tp)->tp_dict)

/* ---- tracing and monitoring ---- */

/* Must frames go to CPython's loop (a tracer or profiler wants its events)?  The hook asks
 * at each entry; the loop asks PA_LOOP_TRACING at calls, returns and errors. */
#define PA_TRACING_ACTIVE(tstate) \
    ((tstate)->c_tracefunc != NULL || (tstate)->c_profilefunc != NULL)
#define PA_TRACING_ACTIVE_FOR(tstate, co) PA_TRACING_ACTIVE(tstate)
/* The hook's common case, with no call (3.11: the answer itself) */
#define PA_TRACING_SURELY_OFF_FOR(tstate, co) (!PA_TRACING_ACTIVE(tstate))
#define PA_LOOP_TRACING(tstate, link) ((link).cframe.use_tracing)
/* A tracer (sys.settrace) would see an 'exception' event in the frame: send it (pyadapt's
 * loop was running the frame when tracing began), and 'return' if it leaves the frame.
 * pa_trace_exception leaves the exception set; pa_trace_return keeps the one set. */
#define PA_TRACER_SET(tstate) ((tstate)->c_tracefunc != NULL)
void pa_trace_exception(PyThreadState *tstate, _PyInterpreterFrame *frame);
void pa_trace_return_with_exception(PyThreadState *tstate, _PyInterpreterFrame *frame);

/* ---- the eval breaker ---- */

#define PA_EVAL_BREAKER(tstate) _Py_atomic_load_relaxed(&(tstate)->interp->ceval.eval_breaker)
/* 3.11's garbage collector runs from allocation, not from the breaker */
#define pa_run_scheduled_gc(tstate) ((void)(tstate), 0)
/* the asynchronous exception was taken */
#define pa_async_exc_taken(interp) ((interp)->ceval.pending.async_exc = 0)

/* ---- the hook's exit contract ---- */

/* The entry frame returned or raised (the loop is unlinked from the thread already): 3.11's
 * caller (_PyEval_Vector, gen_send_ex2) clears and pops it itself, so it stays as it is. */
#define pa_finish_entry_frame(tstate, frame, raised) \
    ((void)(tstate), (void)(frame), (void)(raised))
/* The entry frame's data moved into a generator (RETURN_GENERATOR): the caller still clears
 * and pops it, so it is left empty and valid (no stack, its own code and function refs). */
static inline void
pa_finish_moved_entry_frame(PyThreadState *tstate, _PyInterpreterFrame *frame)
{
    (void)tstate;
    frame->stacktop = 0;
    frame->f_locals = NULL;
    Py_INCREF(frame->f_func);
    Py_INCREF(frame->f_code);
}

/* ---- generators ---- */

/* The generator owns a code reference of its own (gi_code); its frame holds another. */
#define PA_GEN_SET_CODE(gen, code) ((gen)->gi_code = (PyCodeObject *)Py_NewRef(code))
#define PA_GEN_FRAME_RELEASE_CODE(gen_frame) Py_DECREF(PA_FRAME_CODE(gen_frame))
/* 3.11's gen_send_ex2 turns a StopIteration leaving the body into a RuntimeError, so a
 * generator run inline must have it done (its bytecode does not). */
#define PA_GEN_BODY_CONVERTS_STOPITERATION 0
/* RESUME, as a suspended generator's next instruction shows it */
#define PA_IS_RESUME(op) ((op) == RESUME || (op) == RESUME_QUICK)
#define PA_CODEUNIT_OPCODE(u) _Py_OPCODE(u)
#define PA_CODEUNIT_OPARG(u) _Py_OPARG(u)

#define PA_GEN_CODE(gen) ((gen)->gi_code)

/* YIELD_VALUE: the generator's frame is suspended.  `to_loop_caller`: it ran inline in
 * pyadapt's loop, which does what gen_send_ex2 does after its eval call (3.11 leaves that to
 * gen_send_ex2 when the frame was the entry frame). */
static PA_ALWAYS_INLINE void
pa_gen_suspend(PyThreadState *tstate, _PyInterpreterFrame *gen_frame, int to_loop_caller)
{
    PyGenObject *gen = _PyFrame_GetGenerator(gen_frame);
    gen->gi_frame_state = FRAME_SUSPENDED;
    if (to_loop_caller) {
        tstate->exc_info = gen->gi_exc_state.previous_item;
        gen->gi_exc_state.previous_item = NULL;
        gen_frame->previous = NULL;
    }
}

/* ---- objects ---- */

/* ints of at most one digit, either sign, as C longs; non-negative ones as indices */
#define PA_IS_SMALL_INT(o) ((size_t)(Py_SIZE(o) + 1) <= 2)
#define PA_SMALL_INT_VALUE(o) ((long)Py_SIZE(o) * (long)((PyLongObject *)(o))->ob_digit[0])
#define PA_IS_SMALL_INDEX(o) ((size_t)Py_SIZE(o) <= 1)
#define PA_IS_SMALL_POSITIVE(o) (Py_SIZE(o) == 1)
#define PA_SMALL_INDEX_VALUE(o) ((Py_ssize_t)((PyLongObject *)(o))->ob_digit[0])
/* an int that is 0 (its truth) */
#define PA_LONG_IS_ZERO(o) (Py_SIZE(o) == 0)
/* An int of at most two digits (|value| < 2**60), either sign: 1 and its value, else 0.
 * The int forms' second path, after the one-digit one (base64's 32- and 40-bit words). */
static PA_ALWAYS_INLINE int
pa_long_two_digits(PyObject *o, long *value)
{
    Py_ssize_t size = Py_SIZE(o);
    const digit *d = ((PyLongObject *)o)->ob_digit;
    if ((size_t)(size + 1) <= 2) {      /* 0 or one digit */
        *value = (long)size * (long)d[0];
        return 1;
    }
    if ((size_t)(size + 2) > 4) {       /* more than two digits */
        return 0;
    }
    long magnitude = (long)d[0] | (long)d[1] << PyLong_SHIFT;
    *value = size < 0 ? -magnitude : magnitude;
    return 1;
}

/* The runtime's one-character str of a latin-1 code point `c` (< 256), borrowed: the object
 * str's own subscript, chr() and the decoders return for it (static, never freed). */
#define PA_LATIN1_CHAR(c) \
    ((c) < 128 ? (PyObject *)&_Py_SINGLETON(strings).ascii[(c)] \
               : (PyObject *)&_Py_SINGLETON(strings).latin1[(c) - 128])

/* An instance's values array (NULL: it has a dict instead) and its managed dict */
#define PA_INSTANCE_VALUES(o) (*_PyObject_ValuesPointer(o))
#define PA_MANAGED_DICT(o) ((PyDictObject *)*_PyObject_ManagedDictPointer(o))

/* The range iterator, whose layout 3.11's headers keep private (mirrored, same fields). */
typedef struct { PyObject_HEAD long index; long start; long step; long len; } pa_rangeiter;
/* The range iterator's next value: 1 and *value, or 0 when it is exhausted. */
static PA_ALWAYS_INLINE int
pa_rangeiter_next(pa_rangeiter *r, long *value)
{
    if (r->index < r->len) {
        *value = (long)(r->start + (unsigned long)(r->index++) * r->step);
        return 1;
    }
    return 0;
}

/* Hand a frame this loop was running to CPython's loop (tracing began): its result.  A frame
 * that is not the entry frame is cleared and popped here (3.11's loop leaves that to the
 * caller); the entry frame is left to the hook's caller. */
PyObject *pa_delegate_frame(PyThreadState *tstate, _PyInterpreterFrame *frame, int entry);

#endif
