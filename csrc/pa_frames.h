/* pa_frames.h -- frames and generators as the loop handles them, written once for every
 * CPython version over the seam's names (pa_seam3XX.h, included before this): pushing,
 * clearing and popping frames inline (at every Python-to-Python call and return the loop runs
 * inline), entering a generator's frame, and the private layouts both versions share.  The
 * out-of-line half is pa_frames.c.
 */
#ifndef PA_FRAMES_H
#define PA_FRAMES_H

#ifndef PA_SEAM_LOOP_LINK     /* a seam without _PyCFrame (3.13) gives its own link */
/* The loop's link into the thread while it runs: a _PyCFrame on the C stack holding the
 * current frame (3.11 and 3.12; the seam says what else goes with it), and the frame the
 * hook gave the loop (see PA_LOOP_IS_ENTRY). */
typedef struct {
    _PyCFrame cframe;
    _PyInterpreterFrame *entry;
} pa_loop_link;
static PA_ALWAYS_INLINE void
pa_loop_enter(PyThreadState *tstate, pa_loop_link *link, _PyInterpreterFrame *frame)
{
    _PyCFrame *prev = tstate->cframe;
    link->entry = frame;
    PA_LINK_INHERIT(&link->cframe, prev);
    link->cframe.previous = prev;
    tstate->cframe = &link->cframe;
    frame->previous = prev->current_frame;
    link->cframe.current_frame = frame;
}
static PA_ALWAYS_INLINE void
pa_loop_leave(PyThreadState *tstate, pa_loop_link *link)
{
    tstate->cframe = link->cframe.previous;
    PA_LINK_HAND_BACK(&link->cframe, tstate->cframe);
}
#endif

/* The C levels CPython's loop takes at each entry (a seam's PA_LOOP_ENTRY_C_LEVELS: 3.12's
 * two, PY_EVAL_C_STACK_UNITS; 3.11 none, its one counter counts the frame): pyadapt's loop
 * takes as many at each entry through the hook, and CALL_PY_CLASS for the __init__ it runs
 * inline, so recursion through C (cls(...), a getter CPython calls in C) meets the C limit
 * where it does natively.  pa_enter_loop_c_levels: 0, or 1 with RecursionError set (the
 * levels are held all the same, as CPython's loop does, so that leaving them balances). */
#ifndef PA_LOOP_ENTRY_C_LEVELS
#  define PA_LOOP_ENTRY_C_LEVELS 0
#endif
static PA_ALWAYS_INLINE int
pa_enter_loop_c_levels(PyThreadState *tstate)
{
    if (PA_LOOP_ENTRY_C_LEVELS == 0) {
        return 0;
    }
    PA_C_RECURSION_REMAINING(tstate) -= PA_LOOP_ENTRY_C_LEVELS - 1;
    if (_Py_EnterRecursiveCallTstate(tstate, "")) {
        PA_C_RECURSION_REMAINING(tstate)--;
        return 1;
    }
    return 0;
}
#define pa_leave_loop_c_levels(tstate) \
    (PA_LOOP_ENTRY_C_LEVELS ? (void)(PA_C_RECURSION_REMAINING(tstate) += PA_LOOP_ENTRY_C_LEVELS) \
                            : (void)0)

/* The levels of the recursion limit CALL_PY_CLASS takes besides __init__'s frame: what the
 * native call of a Python class costs on top of that frame.  3.11 and 3.12 call the class in C
 * (type.__call__): one C level, taken before the allocation, with the message of a C call, and
 * the levels CPython's loop takes at its entry, taken after it.  A seam whose CPython runs
 * __init__ in a frame of its own loop defines PA_CLASS_CALL_SHIM and its own names (3.13's
 * CALL_ALLOC_AND_ENTER_INIT: one Python level for the shim frame it pushes under __init__'s,
 * unchecked, and no C level):
 *   pa_class_call_enter(tstate)       before the allocation: 0, or 1 with RecursionError set
 *                                     (nothing held)
 *   pa_class_call_enter_init(tstate)  after it: 0, or 1 with RecursionError set (held, as
 *                                     pa_enter_loop_c_levels)
 *   pa_class_call_leave_early(tstate) give back what pa_class_call_enter took
 *   pa_class_call_leave(tstate)       give back both (__init__ returned or raised)
 *   PA_CLASS_CALL_FITS(tstate, code)  whether CPython's form would run: its shim and
 *                                     __init__'s frame fit the thread's data stack chunk */
#ifndef PA_CLASS_CALL_SHIM
#  define pa_class_call_enter(tstate) \
    _Py_EnterRecursiveCallTstate((tstate), " while calling a Python object")
#  define pa_class_call_enter_init(tstate) pa_enter_loop_c_levels(tstate)
#  define pa_class_call_leave_early(tstate) _Py_LeaveRecursiveCallTstate(tstate)
#  define pa_class_call_leave(tstate) \
    (pa_leave_loop_c_levels(tstate), _Py_LeaveRecursiveCallTstate(tstate))
#  define PA_CLASS_CALL_FITS(tstate, code) ((void)(tstate), (void)(code), 1)
#endif

/* `raise E from C` with C a class whose call gives no exception instance: TypeError (3.13; a
 * seam sets it), or the result set as the cause as it is (3.11, 3.12: None clears it). */
#ifndef PA_RAISE_CHECKS_CAUSE_INSTANCE
#  define PA_RAISE_CHECKS_CAUSE_INSTANCE 0
#endif

/* A frame's builtins looked up by name, for IMPORT_NAME's __import__: 1 and a new reference
 * in *res, 0 (absent) or -1 (error) and NULL.  3.11 and 3.12 read a dict; 3.13 any mapping
 * (exec() with a mappingproxy as __builtins__; a seam sets it). */
#ifndef PA_BUILTINS_LOOKUP
static inline int
pa_builtins_lookup_dict(PyObject *builtins, PyObject *name, PyObject **res)
{
    *res = Py_XNewRef(_PyDict_GetItemWithError(builtins, name));
    return *res != NULL ? 1 : PyErr_Occurred() ? -1 : 0;
}
#  define PA_BUILTINS_LOOKUP(builtins, name, res) pa_builtins_lookup_dict((builtins), (name), (res))
#endif

/* A program's top level (_call_toplevel) starts with the whole C limit, as python starts it,
 * less nothing: `c_call`, the call of a C function (exec) that python does not make, takes
 * its level of it (3.12: PA_C_CALL_C_LEVELS).  3.11 counts C levels on the Python counter,
 * which _call_toplevel sets. */
#ifndef PA_TOPLEVEL_C_LEVELS
#  define PA_TOPLEVEL_C_LEVELS(tstate, c_call) ((void)(tstate), (void)(c_call))
#endif

/* Is `f` the frame the hook gave the loop (returning from it leaves the loop)?  Kept in the
 * link, next to what the loop writes at every call and return anyway: as a local of
 * pa_execute of its own it took a register or a spill (callgrind, 3.11, adaptive, M
 * instructions a warm call: fib 47.6 -> 47.3, richards 48.7 -> 48.5). */
#define PA_LOOP_IS_ENTRY(link, f) ((f) == (link).entry)

#ifndef PA_SEAM_INIT      /* a seam with something to set up when the core loads (3.12) */
#  define pa_seam_init() 0
#endif

/* The RESUME a suspended generator's frame goes on at: 3.11 and 3.12 show the YIELD_VALUE
 * before it; a seam whose frames show the next instruction (3.13) defines its own.  Where
 * it resumes (RESUME's oparg: 0 start, 1 after yield, 2 after yield from, 3 after await)
 * is the whole oparg there; 3.13 adds flag bits above. */
#ifndef PA_SUSPENDED_RESUME_INSTR
#  define PA_SUSPENDED_RESUME_INSTR(f) (PA_FRAME_LAST_INSTR(f) + 1)
#  define PA_RESUME_WHERE(oparg) (oparg)
#endif

/* Where frames go on, in CPython offsets.  3.11 and 3.12 show the last instruction run
 * (prev_instr), and a frame goes on after it; a seam whose frames show the instruction about
 * to run (3.13's instr_ptr, and return_offset for a caller) defines its own names:
 *   PA_FRAME_NEXT_OFFSET(f)   a frame entered (new, or a generator resumed): where it goes on
 *   PA_FRAME_THROWN_OFFSET(f) a suspended generator a throw() enters: where the exception is
 *   PA_FRAME_SUSPEND_IN(f, instr, last)  suspend f in a call made by CPython's `instr`: it
 *                             shows instr + last, its last cache entry (0: the instruction
 *                             itself, which return_to_caller finishes)
 *   PA_CALLER_NEXT_OFFSET(f), PA_CALLER_PAST_INSTR(f)  a frame suspended so, its callee
 *                             done: where it goes on, and whether that is past the pyadapt
 *                             instruction found there (LOAD_CALLER_STATE)
 *   PA_CALLER_KEY(f)          what tells two such suspensions apart in the return cache
 *                             (pa_internal.h): the last instruction, with PA_CALLER_PAST_INSTR
 *                             where that is not told by the instruction alone
 *   PA_FRAME_HANDOVER_AT(f, last, next)  CPython's loop takes f over after an instruction
 *                             whose last unit is `last`, and goes on at `next`
 *   PA_FRAME_STEP_PAST(f)     YIELD_VALUE, RETURN_GENERATOR (no caches): the frame leaves
 *                             the loop suspended after its current instruction
 *   PA_GEN_SUSPENDED_STATE(f, yield_from)  the state a yield leaves its generator in, when
 *                             it differs from pa_gen_suspend's
 *   PA_FRAME_SHOW_IN_CALL(f, instr, last)  f calls through C what CPython's `instr` would
 *                             inline: what f shows meanwhile (its last cache entry; 3.13:
 *                             the instruction itself) */
#ifndef PA_FRAME_NEXT_OFFSET
#  define PA_FRAME_NEXT_OFFSET(f) (_PyInterpreterFrame_LASTI(f) + 1)
#  define PA_FRAME_THROWN_OFFSET(f) _PyInterpreterFrame_LASTI(f)
#  define PA_FRAME_SUSPEND_IN(f, instr, last) PA_FRAME_SET_LAST_INSTR((f), (instr) + (last))
#  define PA_CALLER_NEXT_OFFSET(f) (_PyInterpreterFrame_LASTI(f) + 1)
#  define PA_CALLER_PAST_INSTR(f) 0
#  define PA_CALLER_KEY(f) ((const void *)PA_FRAME_LAST_INSTR(f))
#  define PA_FRAME_HANDOVER_AT(f, last, next) PA_FRAME_SET_LAST_INSTR((f), (last))
#  define PA_FRAME_STEP_PAST(f) ((void)0)
#  define PA_GEN_SUSPENDED_STATE(f, yield_from) ((void)0)
#  define PA_FRAME_SHOW_IN_CALL(f, instr, last) PA_FRAME_SET_LAST_INSTR((f), (instr) + (last))
#endif
/* Where a call's NULL sits on a value stack: pyadapt's call family reads it under the callable
 * (3.11's layout); a seam whose CPython keeps it above (3.13's callable, self_or_null) turns a
 * frame's stack over when the frame changes loops (PA_STACK_TURNED_OVER):
 *   PA_STACK_CAN_CONVERT(u, base, top, next, saved_out)  whether it can before `next`, its
 *                                        next instruction, and where the saved locals are
 *   PA_STACK_TO_CPYTHON(u, base, top, saved)    before CPython's loop can run the frame:
 *                                        hand-over, a generator's yield
 *   PA_STACK_FROM_CPYTHON(u, base, top, saved)  a frame entered or resumed in pyadapt's loop
 * `saved` is the stack positions (bit i: base[i]) that hold a comprehension's saved local,
 * whose NULL (an unbound variable) is not a call's: at a yield the compiler's walk
 * (mark_saved_slots, pa_compile.c) has put them in YIELD_VALUE's oparg (PA_YIELD_SAVED); at a
 * hand-over, rare, the walk is made again for the one instruction (pa_saved_slots_at). */
#ifndef PA_STACK_TO_CPYTHON
#  define PA_STACK_TURNED_OVER 0
#  define PA_STACK_CAN_CONVERT(u, base, top, next, saved_out) (*(saved_out) = 0, 1)
#  define PA_STACK_TO_CPYTHON(u, base, top, saved) ((void)(saved))
#  define PA_STACK_FROM_CPYTHON(u, base, top, saved) ((void)(saved))
#endif
/* Whether the loop's DECREF_SYNC (a reference a handler drops, which may be the last) calls
 * the type's deallocator itself when the reference is the last, rather than Py_DECREF's call
 * of libpython's _Py_Dealloc: a seam whose _Py_Dealloc does more than jump to tp_dealloc
 * (3.13: the reference tracer's test) sets it. */
#ifndef PA_DEALLOC_INLINE
#  define PA_DEALLOC_INLINE 0
#endif
/* YIELD_VALUE's oparg: bit 0, a yield of `yield from`/`await` (3.13: the suspended state);
 * the bits above, on a seam that turns stacks over, the positions of saved locals under the
 * yielded value (pa_compile.c, mark_saved_slots). */
#define PA_YIELD_FROM(oparg) ((oparg) & 1)
#define PA_YIELD_SAVED(oparg) ((uint32_t)(oparg) >> 1)
#if PA_STACK_TURNED_OVER
/* The saved locals of a generator's frame resumed at `next` (its pyadapt instruction): a frame
 * suspended at a yield goes on right after its YIELD_VALUE, which has no cache; any other
 * frame entered (new, or a generator not yet started: after RETURN_GENERATOR) holds none. */
static inline uint32_t
pa_saved_at_resume(const pa_unit *u, const uint32_t *next)
{
    if (!(u->flags & PA_UNIT_SAVES_NULL) || next == u->code
            || PA_OPCODE(next[-1]) != PA_YIELD_VALUE) {
        return 0;
    }
    return PA_YIELD_SAVED(PA_OPARG(next[-1]));
}
#  define PA_SAVED_AT_RESUME(u, next) pa_saved_at_resume((u), (next))
#else
#  define PA_SAVED_AT_RESUME(u, next) 0u
#endif
/* Whether a type's tp_version_tag holds a valid version (3.11, 3.12: a flag says so; a seam
 * whose CPython has no such flag, 3.13, tests the tag: 0 is "none"). */
#ifndef PA_TYPE_VERSION_VALID
#  define PA_TYPE_VERSION_VALID(tp) (((tp)->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG) != 0)
#endif
/* What POP_EXCEPT puts back in the thread's exception state from the value PUSH_EXC_INFO
 * saved (None for "no exception"; a seam whose CPython keeps NULL there, 3.13, turns it
 * back, since sys.exc_info() stops at an entry holding None). */
/* An instance's values a store may write in place (STORE_ATTR_INSTANCE_VALUE): those in use
 * (3.11, 3.12: no dict exists then); a seam whose dicts can share the values (3.13: a dict
 * made from them, which counts and orders their keys and tells its watchers) also requires
 * that no dict exists, as CPython's own store does. */
#ifndef PA_STORE_VALUES
#  define PA_STORE_VALUES(o) PA_INSTANCE_VALUES(o)
#endif
/* The two for an instance whose type a site's version guard has matched (a seam that checks
 * the type's layout in PA_INSTANCE_VALUES can leave that to the guard). */
#ifndef PA_GUARDED_INSTANCE_VALUES
#  define PA_GUARDED_INSTANCE_VALUES(o) PA_INSTANCE_VALUES(o)
#endif
#ifndef PA_GUARDED_STORE_VALUES
#  define PA_GUARDED_STORE_VALUES(o) PA_STORE_VALUES(o)
#endif
/* Where the handler of an error the eval breaker raises at a backward jump is looked up:
 * at the unit before the jump's target (0: 3.11 and 3.12 check after jumping) or at the jump
 * itself (1: 3.13 checks before jumping, so an error there is outside a try block that leaves
 * the loop's closing jump out of its range). */
#ifndef PA_BACKWARD_BREAKER_ERROR_AT_JUMP
#  define PA_BACKWARD_BREAKER_ERROR_AT_JUMP 0
#endif
#ifndef PA_EXC_STATE_VALUE
#  define PA_EXC_STATE_VALUE(v) (v)
#endif
#ifndef PA_CPY_FOR_ITER_LAST_CACHE   /* FOR_ITER's and SEND's last cache entry (3.11: none) */
#  define PA_CPY_FOR_ITER_LAST_CACHE 0
#  define PA_CPY_SEND_LAST_CACHE 0
#endif

#define PA_GEN_STATE(gen) ((gen)->gi_frame_state)          /* an lvalue */
#define PA_GEN_FRAME(gen) ((_PyInterpreterFrame *)(gen)->gi_iframe)

/* Out of line: a frame that does not fit the current data-stack chunk. */
_PyInterpreterFrame *pa_push_frame_slow(PyThreadState *tstate, size_t size);
/* Out of line: the frame is the first of its chunk, which is freed. */
void pa_pop_frame_slow(PyThreadState *tstate, _PyInterpreterFrame *frame);
/* Out of line: a frame with a frame object (which takes the data if it outlives it). */
void pa_clear_frame_with_object(PyThreadState *tstate, _PyInterpreterFrame *frame);

/* Push a frame of `size` slots on the thread's frame stack (CPython's own data stack);
 * NULL with MemoryError set. */
static PA_ALWAYS_INLINE _PyInterpreterFrame *
pa_push_frame(PyThreadState *tstate, size_t size)
{
    if (__builtin_expect(_PyThreadState_HasStackSpace(tstate, (int)size), 1)) {
        _PyInterpreterFrame *res = (_PyInterpreterFrame *)tstate->datastack_top;
        tstate->datastack_top += size;
        return res;
    }
    return pa_push_frame_slow(tstate, size);
}

/* Release a frame's references but its code's (CPython 3.12's _PyFrame_ClearExceptCode): a
 * frame object that outlives the frame takes the data, with a code reference of its own. */
static PA_ALWAYS_INLINE void
pa_clear_frame_except_code(PyThreadState *tstate, _PyInterpreterFrame *frame)
{
    PA_ASSERT(PA_CURRENT_FRAME(tstate) != frame);
    if (frame->frame_obj != NULL) {
        pa_clear_frame_with_object(tstate, frame);
        return;
    }
    for (int i = 0; i < frame->stacktop; i++) {
        Py_XDECREF(frame->localsplus[i]);
    }
    Py_XDECREF(frame->f_locals);
    Py_DECREF(PA_FRAME_FUNC(frame));
}

/* Release all of a frame's references. */
static PA_ALWAYS_INLINE void
pa_clear_frame(PyThreadState *tstate, _PyInterpreterFrame *frame)
{
    pa_clear_frame_except_code(tstate, frame);
    Py_DECREF(PA_FRAME_CODE(frame));
}

/* Pop the thread's newest frame (its references already released or moved). */
static PA_ALWAYS_INLINE void
pa_pop_frame(PyThreadState *tstate, _PyInterpreterFrame *frame)
{
    if (__builtin_expect((PyObject **)frame != &tstate->datastack_chunk->data[0], 1)) {
        tstate->datastack_top = (PyObject **)frame;
    }
    else {
        pa_pop_frame_slow(tstate, frame);
    }
}

/* Clear an owned-by-thread frame that is no longer current, and pop it. */
static PA_ALWAYS_INLINE void
pa_clear_and_pop_frame(PyThreadState *tstate, _PyInterpreterFrame *frame)
{
    PA_ASSERT(frame->owner == FRAME_OWNED_BY_THREAD);
    PA_C_RECURSION_REMAINING(tstate)--;   /* as CPython: a __del__ run here has one level less */
    pa_clear_frame(tstate, frame);
    PA_C_RECURSION_REMAINING(tstate)++;
    pa_pop_frame(tstate, frame);
}

/* RETURN_GENERATOR: a new generator, coroutine or async generator that takes over `frame`'s
 * data (which has run up to its RETURN_GENERATOR; the frame keeps no references), in
 * FRAME_CREATED state; NULL with an exception set. */
PyObject *pa_make_generator(PyThreadState *tstate, _PyInterpreterFrame *frame);

/* Run a suspended generator's frame inside the loop (FOR_ITER_GEN, SEND_GEN): what
 * gen_send_ex2 does before its eval call.  Returns the generator's frame, linked to
 * `caller`. */
static PA_ALWAYS_INLINE _PyInterpreterFrame *
pa_gen_enter_inline(PyThreadState *tstate, PyGenObject *gen, PyObject *sent,
                    _PyInterpreterFrame *caller)
{
    _PyInterpreterFrame *gen_frame = PA_GEN_FRAME(gen);
    _PyFrame_StackPush(gen_frame, sent);
    gen->gi_frame_state = FRAME_EXECUTING;
    gen->gi_exc_state.previous_item = tstate->exc_info;
    tstate->exc_info = &gen->gi_exc_state;
    gen_frame->previous = caller;
    return gen_frame;
}

/* A generator frame that ran inline returned (raised = 0) or raised: what gen_send_ex2 does
 * after its eval call, then its frame is cleared. */
void pa_gen_finish_inline(PyThreadState *tstate, _PyInterpreterFrame *gen_frame, int raised);

/* What a suspended generator or coroutine awaits (CPython's _PyGen_yf), new reference, or
 * NULL. */
PyObject *pa_gen_yielding_from(PyGenObject *gen);

/* The eval breaker is set: signals and pending calls, a scheduled garbage collection (3.12),
 * a GIL drop request, an asynchronous exception.  0, or -1 with the exception set. */
#ifndef PA_SEAM_HANDLE_PENDING   /* a seam whose CPython exports its handler (3.13) */
int pa_handle_pending(PyThreadState *tstate);
#endif
/* Signals and pending calls, as the thread's eval breaker runs them: Py_MakePendingCalls (on
 * 3.11 only the main thread runs any; a seam whose CPython lets any thread run its
 * interpreter's pending calls, 3.12, gives its own). */
/* The ImportError `from m import name` raised is set: a seam whose ImportError names what
 * could not be imported (3.12's name_from, which the traceback's "Did you mean" reads)
 * fills it in. */
#ifndef PA_IMPORT_ERROR_NAME_FROM
#  define PA_IMPORT_ERROR_NAME_FROM(name) ((void)(name))
#endif
/* object.__new__(tp) with no arguments, for a class whose tp_new is object's (CALL_PY_CLASS's
 * guard): a new reference, or NULL with an exception set.  3.11's and 3.12's object_new
 * allocate and then set up the instance's values (_PyObject_InitializeDict, not exported),
 * so the default calls it; a seam whose object_new only checks its arguments and the
 * class's abstract methods before tp_alloc (3.13, which sets the values up in the
 * allocation) calls tp_alloc itself: the class's version guards its abstractness. */
#ifndef PA_NEW_PLAIN_INSTANCE
static inline PyObject *
pa_new_plain_instance(PyTypeObject *tp)
{
    PyObject *empty = PyTuple_New(0);
    PyObject *self = empty == NULL ? NULL : tp->tp_new(tp, empty, NULL);
    Py_XDECREF(empty);
    return self;
}
#  define PA_NEW_PLAIN_INSTANCE(tp) pa_new_plain_instance(tp)
#endif
/* The keyword a call's unexpected keyword argument was likely meant to be, a new reference,
 * or NULL with no error set: a seam whose CPython suggests one (3.13: "... argument 'x'. Did
 * you mean 'y'?") gives pa_keyword_suggestion; older versions suggest none. */
#ifndef PA_KEYWORD_SUGGESTION
#  define PA_KEYWORD_SUGGESTION(co, keyword) ((void)(co), (void)(keyword), (PyObject *)NULL)
#endif
#ifndef PA_MAKE_PENDING_CALLS
#  define PA_MAKE_PENDING_CALLS(tstate) ((void)(tstate), Py_MakePendingCalls())
#endif

/* Layouts CPython's headers keep private in 3.11 and 3.12 (mirrored, same fields). */
typedef struct { PyObject_HEAD Py_ssize_t it_index; PyListObject *it_seq; } pa_listiter;
/* A list iterator FOR_ITER_LIST exhausts: it_seq released and cleared, and, for a seam whose
 * list iterator reads a negative it_index as "exhausted" (3.13: __next__ and __length_hint__
 * test only that, and would read the NULL it_seq), it_index set so. */
#ifndef PA_LISTITER_EXHAUSTED
#  define PA_LISTITER_EXHAUSTED(it) ((void)0)
#endif
typedef struct { PyObject_HEAD Py_ssize_t it_index; PyTupleObject *it_seq; } pa_tupleiter;
typedef struct { PyObject_HEAD PyObject *prop_get, *prop_set, *prop_del, *prop_doc, *prop_name;
                 int getter_doc; } pa_property;
/* Modules/arraymodule.c: array.array's object and its per-typecode item descriptor */
struct pa_array;
typedef struct {
    char typecode;
    int itemsize;
    PyObject *(*getitem)(struct pa_array *, Py_ssize_t);
    int (*setitem)(struct pa_array *, Py_ssize_t, PyObject *);
} pa_arraydescr;
typedef struct pa_array { PyObject_VAR_HEAD char *ob_item; Py_ssize_t allocated;
                          const pa_arraydescr *ob_descr; PyObject *weakreflist;
                          Py_ssize_t ob_exports; } pa_array;

#endif
