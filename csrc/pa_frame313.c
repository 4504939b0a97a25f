/* pa_frame313.c -- the out-of-line half of the version seam for CPython 3.13 (the inline
 * half and the accessors are in pa_seam313.h; what every version shares, in pa_frames.c):
 * the hook's exit contract and the sys.monitoring gate.  3.13 exports what 3.12 hid for the
 * first and for the eval breaker (_PyEval_FrameClearAndPop, _Py_HandlePending), so this file
 * is smaller than 3.12's; the recursion limit of 3.12+ is in pa_frames.c.
 */
#include "pa_internal.h"

/* ---- the hook's exit contract ---- */

void
pa_finish_entry_frame(PyThreadState *tstate, _PyInterpreterFrame *frame, int raised)
{
    (void)raised;
    /* CPython's own: a thread's frame cleared and popped; a generator's marked cleared, its
     * exception state restored, cleared but for its code, unlinked */
    _PyEval_FrameClearAndPop(tstate, frame);
}

/* ---- monitoring (sys.settrace, sys.setprofile, cProfile, sys.monitoring tools) ---- */

uint64_t pa_monitoring_quiet_version = PA_MONITORING_NOT_QUIET;

/* Does any tool listen to any of these events? */
static int
any_tool(const uint8_t *tools_per_event, int events)
{
    uint8_t any = 0;
    for (int e = 0; e < events; e++) {
        any |= tools_per_event[e];
    }
    return any != 0;
}

int
pa_monitoring_recompute(PyInterpreterState *interp)
{
    int on = any_tool(interp->monitors.tools, _PY_MONITORING_UNGROUPED_EVENTS);
    pa_monitoring_quiet_version = on ? PA_MONITORING_NOT_QUIET
                                     : (uint64_t)interp->ceval.instrumentation_version;
    return on;
}

int
pa_monitoring_local_tools(PyCodeObject *co)
{
    const _PyCoMonitoringData *data = co->_co_monitoring;
    return data != NULL && any_tool(data->local_monitors.tools, _PY_MONITORING_LOCAL_EVENTS);
}

/* ---- "Did you mean" for an unexpected keyword argument ---- */

/* 3.13's suggestion for `keyword` among co's parameters that can be passed by keyword (after
 * the positional-only ones, keyword-only included), a new reference, or NULL with no error
 * set.  CPython computes it with _Py_CalculateSuggestions, which it does not export; the
 * _suggestions module (built in) gives the same function to Python code and to us.  Any
 * failure here only loses the suggestion, as natively. */
PyObject *
pa_keyword_suggestion(PyCodeObject *co, PyObject *keyword)
{
    Py_ssize_t first = co->co_posonlyargcount;
    Py_ssize_t end = co->co_argcount + co->co_kwonlyargcount;
    if (end <= first) {
        return NULL;
    }
    PyObject *result = NULL;
    PyObject *exc = PyErr_GetRaisedException();
    PyObject *candidates = PyList_New(end - first);
    PyObject *module = candidates == NULL ? NULL : PyImport_ImportModule("_suggestions");
    if (module != NULL) {
        for (Py_ssize_t i = first; i < end; i++) {
            PyList_SET_ITEM(candidates, i - first,
                            Py_NewRef(PyTuple_GET_ITEM(co->co_localsplusnames, i)));
        }
        result = PyObject_CallMethod(module, "_generate_suggestions", "OO", candidates, keyword);
        if (result != NULL && !PyUnicode_Check(result)) {
            Py_CLEAR(result);       /* None: nothing close enough */
        }
    }
    Py_XDECREF(module);
    Py_XDECREF(candidates);
    PyErr_Clear();
    PyErr_SetRaisedException(exc);
    return result;
}
