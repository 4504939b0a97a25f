/* pa_seam313.h -- the version seam for CPython 3.13 (the names are pa_seam311.h's; what
 * differs from 3.12 is said where it differs).  pa_frame313.c holds its out-of-line half.
 *
 * Status: the loop runs frames on 3.13.0 through this seam (where frames go on follows 3.13's
 * instr_ptr, below); 3.13 stays refused (pyadapt/_versions.py) until what
 * docs/architecture.md, "CPython 3.13: where it stands", lists is done.
 */
#ifndef PA_SEAM313_H
#define PA_SEAM313_H

#include "internal/pycore_setobject.h"    /* _PySet_Update (exported) */
#include "internal/pycore_intrinsics.h"

/* ---- helpers 3.13 renamed: the names the core calls, same signatures ---- */

#define _PyObject_LookupAttr PyObject_GetOptionalAttr
#define _PyLong_AsInt PyLong_AsInt
#define _PyDict_GetItemWithError PyDict_GetItemWithError
/* the thread-state forms of the error helpers are no longer exported: the thread's own
 * (the thread state passed is always the current one) */
#define _PyErr_Fetch(ts, t, v, tb) ((void)(ts), PyErr_Fetch((t), (v), (tb)))
#define _PyErr_Restore(ts, t, v, tb) ((void)(ts), PyErr_Restore((t), (v), (tb)))
#define _PyErr_NormalizeException(ts, t, v, tb) ((void)(ts), PyErr_NormalizeException((t), (v), (tb)))
#define _PyErr_SetObject(ts, t, v) ((void)(ts), PyErr_SetObject((t), (v)))
/* The exception being handled: the innermost entry of the thread's exception stack that holds
 * one (or the outermost entry); CPython's _PyErr_GetTopmostException is not exported. */
static inline _PyErr_StackItem *
pa_topmost_exception(PyThreadState *tstate)
{
    _PyErr_StackItem *item = tstate->exc_info;
    while ((item->exc_value == NULL || Py_IsNone(item->exc_value)) && item->previous_item != NULL) {
        item = item->previous_item;
    }
    return item;
}
#define _PyErr_GetTopmostException(ts) pa_topmost_exception(ts)
/* The wrapper an async generator's yielded value travels in: 3.13 exports neither its type
 * nor its constructor, only the intrinsic that makes it. */
#define PA_SEAM_ASYNC_GEN_WRAP 1
#define async_gen_wrap(val) \
    _PyIntrinsics_UnaryFunctions[INTRINSIC_ASYNC_GEN_WRAP].func(_PyThreadState_GET(), (val))

/* 3.13's LOAD_FROM_DICT_OR_GLOBALS (a type alias's or type parameter's value in a class
 * body) looks in the globals and builtins as LOAD_GLOBAL does -- through the mapping protocol
 * when either is not an exact dict, so a dict subclass's __missing__ answers -- while
 * LOAD_NAME and 3.12's form read the globals with a plain dict look-up. */
#define PA_SEAM_DICT_OR_GLOBALS_AS_GLOBAL 1

/* 3.13's dicts tell their watchers of every change, as 3.12's: STORE_ATTR_WITH_HINT stores
 * through the dict API. */
#define PA_DICT_STORE_IN_PLACE 0
#define PA_DICT_CHANGED(d) ((void)(d))

/* ---- frames: fields under version-neutral names ---- */

/* 3.13's frame holds an "executable" (a code object for every frame pyadapt sees; None only
 * for the C-stack entry frames of CPython's own loop, which pyadapt never runs). */
#define PA_FRAME_CODE(f) ((PyCodeObject *)(f)->f_executable)
#define PA_FRAME_FUNC(f) ((PyFunctionObject *)(f)->f_funcobj)
/* 3.13's instr_ptr is the instruction executing or about to begin.  While an instruction
 * runs that is the instruction itself, as 3.11's prev_instr: what pyadapt writes before
 * anything can look reads the same.  They part at suspension: a caller in a call shows the
 * CALL itself and a suspended generator the instruction after its YIELD_VALUE, where 3.11
 * shows the YIELD_VALUE (where frames go on, below). */
#define PA_FRAME_LAST_INSTR(f) ((f)->instr_ptr)
#define PA_FRAME_SET_LAST_INSTR(f, p) ((f)->instr_ptr = (p))
/* Fill in a new frame's specials (function, code, globals, builtins; locals `locals`, which
 * _PyFrame_Initialize steals, as on 3.12; it also points instr_ptr at the first unit). */
#define PA_FRAME_INIT_SPECIALS(f, func, locals, code) \
    _PyFrame_Initialize((f), (func), Py_XNewRef(locals), (code), (code)->co_nlocalsplus)

/* The last cache entry of the instructions a frame can be suspended in (relative to the
 * instruction), where they have one: 3.13's suspended caller shows the instruction itself, so
 * PA_FRAME_SUSPEND_IN keeps only whether one was given (see below). */
#define PA_CPY_CALL_LAST_CACHE 3
#define PA_CPY_LOAD_ATTR_LAST_CACHE 9
#define PA_CPY_BINARY_SUBSCR_LAST_CACHE 1
/* A property getter or __getattribute__ that LOAD_ATTR runs inline: as 3.13's own forms,
 * the caller goes on past the LOAD_ATTR, as after a call. */
#define PA_CPY_GETTER_SHOWS PA_CPY_LOAD_ATTR_LAST_CACHE
#define PA_CPY_FOR_ITER_LAST_CACHE 1
#define PA_CPY_SEND_LAST_CACHE 1

/* Where frames go on (pa_frames.h's names).  instr_ptr is the instruction about to run when
 * a frame is entered: the first for a new frame, the RESUME after its YIELD_VALUE for a
 * suspended generator.  A caller the loop suspended in a call shows the instruction itself,
 * as natively, and return_offset says whether it goes on past it (1) or finishes it (0:
 * CALL_PY_CLASS's __init__, a property getter); 3.13's own loop keeps the instruction's size
 * there, which the loop's callers never read (it is only read by CPython's loop returning
 * into a frame it runs, and CPython takes a frame over from pyadapt through instr_ptr). */
#define PA_FRAME_NEXT_OFFSET(f) _PyInterpreterFrame_LASTI(f)
#define PA_FRAME_THROWN_OFFSET(f) (_PyInterpreterFrame_LASTI(f) - 1)
#define PA_FRAME_SUSPEND_IN(f, instr, last) \
    ((f)->instr_ptr = (instr), (f)->return_offset = (uint16_t)((last) != 0))
#define PA_CALLER_NEXT_OFFSET(f) _PyInterpreterFrame_LASTI(f)
#define PA_CALLER_PAST_INSTR(f) ((f)->return_offset)
/* _Py_CODEUNIT is two bytes wide: the flag takes the instruction pointer's low bit. */
#define PA_CALLER_KEY(f) \
    ((const void *)((uintptr_t)(f)->instr_ptr | (uintptr_t)((f)->return_offset != 0)))
#define PA_FRAME_HANDOVER_AT(f, last, next) \
    ((void)(last), (f)->instr_ptr = (next), (f)->return_offset = 0)
#define PA_FRAME_STEP_PAST(f) ((f)->instr_ptr++)
#define PA_FRAME_SHOW_IN_CALL(f, instr, last) ((void)(last), (f)->instr_ptr = (instr))
/* 3.13's call layout puts a call's NULL above its callable, pyadapt's under it (3.13's
 * PUSH_NULL lowers to PUSH_NULL_UNDER): a frame's stack is turned over when it changes loops
 * (pa_frames.h).  A call's callable is never NULL, so a NULL beside a value is one pair --
 * but for a comprehension's saved local (LOAD_FAST_AND_CLEAR of an unbound variable), which
 * is a NULL of its own: `saved` says where those are (bit i: base[i]), from the compiler's
 * walk.  Always inlined: a frame's stack at a yield is short (a loop's iterator), and gcc's
 * out-of-line part cost a call at every yield and resume. */
#define PA_STACK_TURNED_OVER 1
static inline int
pa_stack_has_null(PyObject **base, PyObject **top)
{
    for (PyObject **p = base; p < top; p++) {
        if (*p == NULL) {
            return 1;
        }
    }
    return 0;
}
/* base[i] holds a saved local (never a call's NULL) */
#define PA_SAVED_SLOT(saved, i) ((i) < 32 && (((saved) >> (i)) & 1))
static PA_ALWAYS_INLINE void
pa_stack_to_cpython(PyObject **base, PyObject **top, uint32_t saved)
{
    for (PyObject **p = base; p + 1 < top; p++) {
        if (*p == NULL && !PA_SAVED_SLOT(saved, p - base)) {   /* NULL, callable -> callable, NULL */
            p[0] = p[1];
            p[1] = NULL;
            p++;
        }
    }
}
static PA_ALWAYS_INLINE void
pa_stack_from_cpython(PyObject **base, PyObject **top, uint32_t saved)
{
    for (PyObject **p = base + 1; p < top; p++) {
        if (*p == NULL && !PA_SAVED_SLOT(saved, p - base)) {   /* callable, NULL -> NULL, callable */
            p[0] = p[-1];
            p[-1] = NULL;
            p++;
        }
    }
}
#define PA_STACK_CAN_CONVERT(u, base, top, next, saved_out) \
    (*(saved_out) = 0, \
     !((u)->flags & PA_UNIT_SAVES_NULL) || !pa_stack_has_null((base), (top)) \
     || pa_saved_slots_at((u), (next), (base), (top), (saved_out)) == 0)
#define PA_STACK_TO_CPYTHON(u, base, top, saved) pa_stack_to_cpython((base), (top), (saved))
#define PA_STACK_FROM_CPYTHON(u, base, top, saved) pa_stack_from_cpython((base), (top), (saved))

/* 3.13 has no Py_TPFLAGS_VALID_VERSION_TAG: a tag of 0 is "no version" */
#define PA_TYPE_VERSION_VALID(tp) ((tp)->tp_version_tag != 0)
/* 3.13 keeps NULL, not None, in an exception state with no exception (POP_EXCEPT), and its
 * sys.exc_info() looks past NULL entries only.  None is immortal: no reference to give. */
#define PA_EXC_STATE_VALUE(v) (Py_IsNone(v) ? NULL : (v))

/* 3.13 tells a generator suspended in `yield from` or `await` apart (YIELD_VALUE's oparg is
 * 1 there): gi_yieldfrom and gen_close read FRAME_SUSPENDED_YIELD_FROM */
#define PA_GEN_SUSPENDED_STATE(f, yield_from) \
    (_PyFrame_GetGenerator(f)->gi_frame_state = pa_gen_suspend_state(yield_from))

/* ---- the thread state ---- */

/* The thread's current frame (an lvalue): 3.13 keeps it in the thread state (no _PyCFrame).
 * The recursion counters are 3.12's (pa_seam312plus.h). */
#define PA_CURRENT_FRAME(tstate) ((tstate)->current_frame)

/* IMPORT_NAME finds __import__ in builtins that are any mapping (pa_frames.h) */
#define PA_BUILTINS_LOOKUP(builtins, name, res) PyMapping_GetOptionalItem((builtins), (name), (res))

/* `raise E from C`: the instance C() makes is checked (pa_frames.h) */
#define PA_RAISE_CHECKS_CAUSE_INSTANCE 1

/* cls(...) with a Python __init__ (pa_frames.h's PA_CLASS_CALL_SHIM names): 3.13 specializes
 * the call to CALL_ALLOC_AND_ENTER_INIT, which runs __init__ in its own loop under a shim frame
 * (_Py_InitCleanup: it checks __init__'s result).  The shim takes a Python level, unchecked,
 * after the allocation, and __init__'s frame takes its own, checked, at its entry: no C level
 * and no message of a C call.  The form runs only if both frames fit the data stack's chunk
 * (else the generic call, through type.__call__, one Python level); the shim's frame size is
 * its two stack slots over the specials (the object is not exported).  pyadapt pushes no shim
 * but takes its room on the data stack, under __init__'s frame, so that later calls find the
 * chunk as full as natively (whether the next shim fits decides the levels that call costs):
 * popping __init__'s frame gives the stack back to the room's end (both are in one chunk,
 * which PA_CLASS_CALL_FITS checked), and pa_class_call_leave gives back the room. */
#define PA_CLASS_CALL_SHIM 1
#define PA_INIT_SHIM_FRAMESIZE (2 + FRAME_SPECIALS_SIZE)
#define pa_class_call_enter(tstate) ((void)(tstate), 0)
#define pa_class_call_enter_init(tstate) \
    ((tstate)->py_recursion_remaining--, (tstate)->datastack_top += PA_INIT_SHIM_FRAMESIZE, 0)
#define pa_class_call_leave_early(tstate) ((void)(tstate))
#define pa_class_call_leave(tstate) \
    ((tstate)->py_recursion_remaining++, (void)((tstate)->datastack_top -= PA_INIT_SHIM_FRAMESIZE))
#define PA_CLASS_CALL_FITS(tstate, code) \
    _PyThreadState_HasStackSpace((tstate), (code)->co_framesize + PA_INIT_SHIM_FRAMESIZE)

/* The loop's link into the thread (pa_loop_enter, pa_frames.h's names): 3.13 has no
 * _PyCFrame; the thread state holds the current frame, and the link remembers the one to
 * give back when the loop leaves. */
#define PA_SEAM_LOOP_LINK 1
typedef struct {
    PyThreadState *tstate;
    _PyInterpreterFrame *previous;      /* the thread's current frame when the loop began */
    _PyInterpreterFrame *entry;         /* the frame the hook gave the loop */
} pa_loop_link;
static PA_ALWAYS_INLINE void
pa_loop_enter(PyThreadState *tstate, pa_loop_link *link, _PyInterpreterFrame *frame)
{
    link->tstate = tstate;
    link->entry = frame;
    link->previous = tstate->current_frame;
    frame->previous = link->previous;
    tstate->current_frame = frame;
}
static PA_ALWAYS_INLINE void
pa_loop_leave(PyThreadState *tstate, pa_loop_link *link)
{
    tstate->current_frame = link->previous;
}
#define PA_LOOP_SET_CURRENT(link, f) ((link).tstate->current_frame = (f))

/* CPython 3.13's loop takes two levels of the C recursion limit at each entry, as 3.12's
 * (PY_EVAL_C_STACK_UNITS): pyadapt's loop takes them at each entry through the hook too
 * (pa_frames.h).  Without them, recursion through C (a C function calling back into Python
 * code, 90,000 deep under setrecursionlimit(100_000)) ran past the C limit and overflowed the
 * C stack, where natively it raises RecursionError.  A program's top level starts with the
 * whole C limit; a call of exec takes one level. */
#define PA_LOOP_ENTRY_C_LEVELS 2
#define PA_TOPLEVEL_C_LEVELS(tstate, c_call) \
    ((tstate)->c_recursion_remaining = Py_C_RECURSION_LIMIT + ((c_call) ? 1 : 0))

/* 3.13 suggests a keyword for an unexpected keyword argument, among the parameters that can
 * be passed by keyword (pa_frames.h; pa_frame313.c). */
PyObject *pa_keyword_suggestion(PyCodeObject *co, PyObject *keyword);
#define PA_KEYWORD_SUGGESTION(co, keyword) pa_keyword_suggestion((co), (keyword))

/* builtins.__import__ as the interpreter keeps it (import_name's fast path) */
#define PA_INTERP_IMPORT_FUNC(interp) ((interp)->imports.import_func)

/* ---- tracing and monitoring ---- */

/* As 3.12 (sys.settrace, sys.setprofile and cProfile are sys.monitoring tools), but the
 * version that moves when events change is interp->ceval.instrumentation_version (which
 * CPython also copies into each thread's eval_breaker above its flag bits). */
#define PA_MONITORING_VERSION(interp) ((interp)->ceval.instrumentation_version)

/* ---- the eval breaker ---- */

/* 3.13's breaker is per thread: flag bits (_PY_*_BIT) below _PY_EVAL_EVENTS_BITS, the
 * instrumentation version above them, which alone must not stop the loop. */
#define PA_EVAL_BREAKER(tstate) \
    (_Py_atomic_load_uintptr_relaxed(&(tstate)->eval_breaker) & _PY_EVAL_EVENTS_MASK)
/* 3.13 exports _Py_HandlePending, which handles every flag (signals, pending calls, the
 * garbage collector, a GIL drop request, an asynchronous exception): pa_handle_pending is
 * the seam's here, not pa_frames.c's. */
#define PA_SEAM_HANDLE_PENDING 1
#define pa_handle_pending(tstate) _Py_HandlePending(tstate)

/* ---- objects ---- */

/* 3.13's object_new checks its arguments and the class's abstract methods, then tail-calls
 * tp_alloc, which sets up the inline values: for a class CALL_PY_CLASS took, that is all */
#define PA_NEW_PLAIN_INSTANCE(tp) ((tp)->tp_alloc((tp), 0))
/* 3.13's _Py_Dealloc asks whether a reference tracer is set before it calls tp_dealloc, out
 * of line through the PLT, where CPython's own loop has it inline: the loop's DECREF_SYNC
 * calls the deallocator itself, with the same test (_Py_DECREF_SPECIALIZED).  Callgrind,
 * 3.13.0: 1% fewer instructions on the workloads, 3% on a generator loop; on 3.11.7, whose
 * _Py_Dealloc is one jump, 0.4-1% more (gcc's register allocation), so only here. */
#define PA_DEALLOC_INLINE 1
/* 3.13 exports float's deallocator for exact floats (pa_internal.h's PA_DECREF_FLOAT) */
#define PA_DECREF_FLOAT(op) _Py_DECREF_SPECIALIZED((op), _PyFloat_ExactDealloc)

/* ---- the hook's exit contract ---- */

/* As 3.12: whoever evaluates a frame clears it, and pops it if the thread owns it.  3.13
 * exports CPython's own helper for it (_PyEval_FrameClearAndPop: a thread's frame cleared
 * and popped, a generator's cleared with its exception state restored). */
void pa_finish_entry_frame(PyThreadState *tstate, _PyInterpreterFrame *frame, int raised);
#define pa_finish_moved_entry_frame(tstate, frame) pa_pop_frame((tstate), (frame))

/* ---- generators (what 3.12 and 3.13 share is in pa_seam312plus.h) ---- */

/* A suspended generator's frame shows the RESUME it goes on at (pa_frames.h); RESUME's oparg
 * has the depth flag (bit 2) above where it resumes */
#define PA_SUSPENDED_RESUME_INSTR(f) ((f)->instr_ptr)
#define PA_RESUME_WHERE(oparg) ((oparg) & 3)

#define PA_GEN_CODE(gen) ((PyCodeObject *)PA_GEN_FRAME(gen)->f_executable)

/* YIELD_VALUE: the generator's frame is suspended, and the loop restores the exception state
 * and unlinks the frame, as on 3.12.  3.13 tells a generator suspended in `yield from` or
 * `await` apart (FRAME_SUSPENDED_YIELD_FROM, from YIELD_VALUE's oparg), which gi_yieldfrom
 * and gen_close read: pa_gen_suspend_state is the state to set. */
#define pa_gen_suspend_state(yield_from) ((yield_from) ? FRAME_SUSPENDED_YIELD_FROM : FRAME_SUSPENDED)

/* ---- objects ---- */

/* An instance's values (NULL: they are not in use) and its managed dict.  3.13 keeps the
 * values inline after the object header for a type with Py_TPFLAGS_INLINE_VALUES, valid
 * until a dict takes them over; unlike 3.11 and 3.12 a managed dict can exist while the
 * values are still valid (a dict made from them), so a guard on "no dict" is not one on
 * "values in use". */
static PA_ALWAYS_INLINE PyDictValues *
pa_instance_values(PyObject *o)
{
    if (!(Py_TYPE(o)->tp_flags & Py_TPFLAGS_INLINE_VALUES)) {
        return NULL;
    }
    PyDictValues *values = _PyObject_InlineValues(o);
    return values->valid ? values : NULL;
}
#define PA_INSTANCE_VALUES(o) pa_instance_values(o)
/* The same for an instance whose type a site's version guard has matched: the specializer
 * took an instance-value form only for a type with inline values, and a type keeps its
 * flags for life (3.13's own instance-value forms only assert the flag after their guard). */
static PA_ALWAYS_INLINE PyDictValues *
pa_guarded_instance_values(PyObject *o)
{
    PA_ASSERT(Py_TYPE(o)->tp_flags & Py_TPFLAGS_INLINE_VALUES);
    PyDictValues *values = _PyObject_InlineValues(o);
    return values->valid ? values : NULL;
}
#define PA_GUARDED_INSTANCE_VALUES(o) pa_guarded_instance_values(o)
#define PA_GUARDED_STORE_VALUES(o) \
    (_PyObject_GetManagedDict(o) == NULL ? pa_guarded_instance_values(o) : NULL)
#define PA_MANAGED_DICT(o) _PyObject_GetManagedDict(o)
/* 3.13's JUMP_BACKWARD checks the eval breaker before it jumps (pa_frames.h) */
#define PA_BACKWARD_BREAKER_ERROR_AT_JUMP 1
/* 3.13's list iterator is exhausted when its index is negative (listiter_next) */
#define PA_LISTITER_EXHAUSTED(it) ((it)->it_index = -1)
#define PA_STORE_VALUES(o) (_PyObject_GetManagedDict(o) == NULL ? pa_instance_values(o) : NULL)

#include "pa_seam312plus.h"   /* recursion counters, monitoring names, generators, ints, ... */

#endif
