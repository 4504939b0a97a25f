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
/* A property getter or __getattribute__ that LOAD_ATTR runs inline: 3.12 inlines them too
 * (LOAD_ATTR_PROPERTY, LOAD_ATTR_GETATTRIBUTE_OVERRIDDEN), and the caller shows the last
 * cache entry, as in a call. */
#define PA_CPY_GETTER_SHOWS PA_CPY_LOAD_ATTR_LAST_CACHE
/* A caller suspended in a generator run inline (3.12's FOR_ITER_GEN, SEND_GEN) shows the one
 * cache entry of its FOR_ITER or SEND; it goes on after it when the generator yields. */
#define PA_CPY_FOR_ITER_LAST_CACHE 1
#define PA_CPY_SEND_LAST_CACHE 1

/* ---- dicts ---- */

/* 3.12's dicts tell their watchers of every change: STORE_ATTR_WITH_HINT stores through the
 * dict API. */
#define PA_DICT_STORE_IN_PLACE 0
#define PA_DICT_CHANGED(d) ((void)(d))

/* ---- the thread state ---- */

/* The thread's current frame (an lvalue). */
#define PA_CURRENT_FRAME(tstate) ((tstate)->cframe->current_frame)

/* The loop's link into the thread while it runs (pa_loop_enter, pa_frames.h): 3.12's
 * _PyCFrame holds the current frame only.  CPython's own loop also links an entry frame
 * owned by the C stack below the frame it runs; pyadapt's needs none (frame walks skip such
 * frames). */
#define PA_LINK_INHERIT(link, prev) ((void)(link), (void)(prev))
#define PA_LINK_HAND_BACK(link, prev) ((void)(link), (void)(prev))
#define PA_LOOP_SET_CURRENT(link, f) ((link).cframe.current_frame = (f))

/* CPython 3.12's loop takes two levels of the C recursion limit at each entry
 * (PY_EVAL_C_STACK_UNITS; natively cls(...) with a Python __init__ costs three C levels, the
 * type's call and the loop's entry): pyadapt's loop takes them at each entry too (pa_frames.h). */
#define PA_LOOP_ENTRY_C_LEVELS 2
/* A program's top level starts with the whole C limit (pa_frames.h), less what python's own
 * start takes (nothing before the loop's entry); a call of exec takes one level. */
#define PA_TOPLEVEL_C_LEVELS(tstate, c_call) \
    ((tstate)->c_recursion_remaining = C_RECURSION_LIMIT + ((c_call) ? 1 : 0))

/* builtins.__import__ as the interpreter keeps it (import_name's fast path) */
#define PA_INTERP_IMPORT_FUNC(interp) ((interp)->imports.import_func)

/* ---- tracing and monitoring ---- */

/* Must frames go to CPython's loop?  On 3.12 tracers and profilers are sys.monitoring tools
 * (sys.settrace is tool 7, sys.setprofile 6, cProfile 2 with no c_profilefunc): any tool
 * with a global event, or local events on this code object, sends the frame there.  The
 * answer for the global events is recomputed when the interpreter's monitoring version
 * moves (every change of events bumps it). */
#define PA_MONITORING_VERSION(interp) ((interp)->monitoring_version)

/* ---- the eval breaker ---- */

#define PA_EVAL_BREAKER(tstate) _Py_atomic_load_relaxed(&(tstate)->interp->ceval.eval_breaker)
/* 3.12's garbage collector runs from the breaker (allocation sets gc_scheduled, which
 * Py_MakePendingCalls leaves alone): run the collection CPython's loop would; 0 or -1 */
int pa_run_scheduled_gc(PyThreadState *tstate);
/* Once, when the core loads: what pa_run_scheduled_gc calls (gc.collect) looked up then, not
 * at the first collection, where importing gc would run importlib's Python frames, which
 * allocate and schedule the collection again before the look-up ends (endless recursion). */
#define PA_SEAM_INIT 1
int pa_seam_init(void);
/* Signals and pending calls: Py_MakePendingCalls on the main thread; on another, the
 * interpreter's pending calls, which 3.12's loop runs on any thread (Py_MakePendingCalls
 * runs none there: a thread waiting for one to run in pyadapt's loop waited for ever) */
int pa_make_pending_calls(PyThreadState *tstate);
#define PA_MAKE_PENDING_CALLS(tstate) pa_make_pending_calls(tstate)
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


#define PA_GEN_CODE(gen) (PA_GEN_FRAME(gen)->f_code)    /* 3.12 has no gi_code */


/* ---- objects ---- */

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

#include "pa_seam312plus.h"

#endif
