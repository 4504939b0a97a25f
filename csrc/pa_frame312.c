/* pa_frame312.c -- the out-of-line half of the version seam for CPython 3.12 (the inline
 * half and the accessors are in pa_seam312.h; what every version shares, in pa_frames.c):
 * the hook's exit contract (3.12's loop clears and pops the frames it evaluates), the
 * garbage collector run from the eval breaker, the Python recursion limit, and the
 * sys.monitoring gate.
 */
#include "pa_internal.h"

/* ---- the hook's exit contract ---- */

void
pa_finish_entry_frame(PyThreadState *tstate, _PyInterpreterFrame *frame, int raised)
{
    (void)raised;
    if (frame->owner == FRAME_OWNED_BY_THREAD) {
        pa_clear_and_pop_frame(tstate, frame);
        return;
    }
    /* a generator's frame: gen_send_ex2 clears the exception state itself, after this */
    PA_ASSERT(frame->owner == FRAME_OWNED_BY_GENERATOR);
    PyGenObject *gen = _PyFrame_GetGenerator(frame);
    gen->gi_frame_state = FRAME_CLEARED;
    tstate->exc_info = gen->gi_exc_state.previous_item;
    gen->gi_exc_state.previous_item = NULL;
    tstate->c_recursion_remaining--;
    pa_clear_frame_except_code(tstate, frame);
    tstate->c_recursion_remaining++;
    frame->previous = NULL;
}

/* ---- the eval breaker ----
 * CPython 3.12's _Py_HandlePending is not exported.  Besides signals, pending calls, a GIL
 * drop request and an asynchronous exception, the breaker now carries the garbage
 * collector's request (allocation sets gc_scheduled), which Py_MakePendingCalls leaves
 * alone: pyadapt runs the collection CPython's loop would run, then recomputes the breaker
 * from what is still pending. */

static PyObject *gc_collect;     /* gc.collect, from pa_seam_init */

int
pa_seam_init(void)
{
    PyObject *gc = PyImport_ImportModule("gc");
    if (gc == NULL) {
        return -1;
    }
    gc_collect = PyObject_GetAttrString(gc, "collect");
    Py_DECREF(gc);
    return gc_collect == NULL ? -1 : 0;
}

static int
collect_scheduled_generation(PyThreadState *tstate)
{
    struct _gc_runtime_state *gcstate = &tstate->interp->gc;
    if (!gcstate->enabled || gcstate->collecting) {
        return 0;
    }
    /* the oldest generation over its threshold, as gc_collect_generations chooses */
    int generation = -1;
    for (int i = NUM_GENERATIONS - 1; i >= 0; i--) {
        if (gcstate->generations[i].count > gcstate->generations[i].threshold) {
            if (i == NUM_GENERATIONS - 1
                    && gcstate->long_lived_pending < gcstate->long_lived_total / 4) {
                continue;
            }
            generation = i;
            break;
        }
    }
    if (generation < 0) {
        return 0;
    }
    if (gc_collect == NULL) {
        return 0;
    }
    PyObject *n = PyObject_CallFunction(gc_collect, "i", generation);
    if (n == NULL) {
        return -1;
    }
    Py_DECREF(n);
    return 0;
}

void
pa_recompute_eval_breaker(PyInterpreterState *interp)
{
    struct _ceval_state *ceval = &interp->ceval;
    int main_thread = _Py_IsMainThread() && interp == _PyInterpreterState_Main();
    int breaker = _Py_atomic_load_relaxed(&ceval->gil_drop_request)
        | (main_thread && _Py_atomic_load_relaxed(&_PyRuntime.ceval.signals_pending))
        | (main_thread
           && _Py_atomic_load_relaxed(&_PyRuntime.ceval.pending_mainthread.calls_to_do))
        | _Py_atomic_load_relaxed(&ceval->pending.calls_to_do)
        | ceval->pending.async_exc
        | _Py_atomic_load_relaxed(&ceval->gc_scheduled);
    _Py_atomic_store_relaxed(&ceval->eval_breaker, breaker != 0);
}

int
pa_make_pending_calls(PyThreadState *tstate)
{
    if (_Py_IsMainThread()) {
        return Py_MakePendingCalls();
    }
    /* CPython 3.12's make_pending_calls for a thread that is not the main one: one thread of
     * the interpreter at a time runs its queue, unsignalled first so that a call added
     * meanwhile signals again; a bounded number of calls, in case of recursion */
    PyInterpreterState *interp = tstate->interp;
    struct _pending_calls *pending = &interp->ceval.pending;
    if (!_Py_atomic_load_relaxed(&pending->calls_to_do)) {
        return 0;
    }
    PyThread_acquire_lock(pending->lock, WAIT_LOCK);
    if (pending->busy) {
        PyThread_release_lock(pending->lock);
        return 0;
    }
    pending->busy = 1;
    PyThread_release_lock(pending->lock);
    _Py_atomic_store_relaxed(&pending->calls_to_do, 0);
    pa_recompute_eval_breaker(interp);
    for (int i = 0; i < NPENDINGCALLS; i++) {
        int (*func)(void *) = NULL;
        void *arg = NULL;
        PyThread_acquire_lock(pending->lock, WAIT_LOCK);
        if (pending->first != pending->last) {
            func = pending->calls[pending->first].func;
            arg = pending->calls[pending->first].arg;
            pending->first = (pending->first + 1) % NPENDINGCALLS;
        }
        PyThread_release_lock(pending->lock);
        if (func == NULL) {
            break;
        }
        if (func(arg) != 0) {
            pending->busy = 0;
            _Py_atomic_store_relaxed(&pending->calls_to_do, 1);    /* to be safe, as CPython */
            pa_recompute_eval_breaker(interp);
            return -1;
        }
    }
    pending->busy = 0;
    return 0;
}

int
pa_run_scheduled_gc(PyThreadState *tstate)
{
    struct _ceval_state *ceval = &tstate->interp->ceval;
    if (!_Py_atomic_load_relaxed(&ceval->gc_scheduled)) {
        return 0;
    }
    _Py_atomic_store_relaxed(&ceval->gc_scheduled, 0);
    pa_recompute_eval_breaker(tstate->interp);
    return collect_scheduled_generation(tstate);
}

/* ---- monitoring (sys.settrace, sys.setprofile, cProfile, sys.monitoring tools) ---- */

uint64_t pa_monitoring_quiet_version = PA_MONITORING_NOT_QUIET;

int
pa_monitoring_recompute(PyInterpreterState *interp)
{
    int on = 0;
    for (int e = 0; e < _PY_MONITORING_UNGROUPED_EVENTS; e++) {
        on |= interp->monitors.tools[e];
    }
    pa_monitoring_quiet_version = on ? PA_MONITORING_NOT_QUIET
                                     : (uint64_t)interp->monitoring_version;
    return on != 0;
}

int
pa_monitoring_local_tools(PyCodeObject *co)
{
    _PyCoMonitoringData *data = co->_co_monitoring;
    if (data == NULL) {
        return 0;
    }
    int on = 0;
    for (int e = 0; e < _PY_MONITORING_LOCAL_EVENTS; e++) {
        on |= data->local_monitors.tools[e];
    }
    return on != 0;
}
