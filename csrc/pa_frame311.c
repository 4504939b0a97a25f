/* pa_frame311.c -- the out-of-line half of the version seam for CPython 3.11 (the inline
 * half and the accessors are in pa_seam311.h; what every version shares, in pa_frames.c):
 * handing a frame to CPython's loop, and the tracer events pyadapt sends itself.
 */
#include "pa_internal.h"

/* ---- handing a frame to CPython's loop ---- */

PyObject *
pa_delegate_frame(PyThreadState *tstate, _PyInterpreterFrame *frame, int entry)
{
    PyObject *res = _PyEval_EvalFrameDefault(tstate, frame, 0);
    if (!entry) {
        pa_clear_and_pop_frame(tstate, frame);
    }
    return res;
}

/* ---- tracing events pyadapt emits itself (CPython's call_trace / call_exc_trace) ----
 * A debugger's f_trace was set on a frame running in pyadapt's loop, and an exception
 * arrives: the 'exception' event (and 'return' if it leaves the frame), before CPython's
 * loop takes over at the handler (the loop's `handover`). */

static int
call_trace(PyThreadState *tstate, _PyInterpreterFrame *frame, int what, PyObject *arg)
{
    if (tstate->tracing || tstate->c_tracefunc == NULL) {
        return 0;
    }
    PyFrameObject *f = pa_frame_object(tstate, frame);
    if (f == NULL) {
        return -1;
    }
    int old_what = tstate->tracing_what;
    tstate->tracing_what = what;
    PyThreadState_EnterTracing(tstate);
    f->f_lineno = PyCode_Addr2Line(frame->f_code,
                                   _PyInterpreterFrame_LASTI(frame) * (int)sizeof(_Py_CODEUNIT));
    int result = tstate->c_tracefunc(tstate->c_traceobj, f, what, arg);
    f->f_lineno = 0;
    PyThreadState_LeaveTracing(tstate);
    tstate->tracing_what = old_what;
    return result;
}

void
pa_trace_exception(PyThreadState *tstate, _PyInterpreterFrame *frame)
{
    PyObject *type, *value, *tb;
    _PyErr_Fetch(tstate, &type, &value, &tb);
    if (value == NULL) {
        value = Py_NewRef(Py_None);
    }
    _PyErr_NormalizeException(tstate, &type, &value, &tb);
    PyObject *arg = PyTuple_Pack(3, type, value, tb != NULL ? tb : Py_None);
    if (arg == NULL) {
        _PyErr_Restore(tstate, type, value, tb);
        return;
    }
    int err = call_trace(tstate, frame, PyTrace_EXCEPTION, arg);
    Py_DECREF(arg);
    if (err == 0) {
        _PyErr_Restore(tstate, type, value, tb);
    }
    else {
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
    }
}

void
pa_trace_return_with_exception(PyThreadState *tstate, _PyInterpreterFrame *frame)
{
    PyObject *et, *ev, *etb;
    _PyErr_Fetch(tstate, &et, &ev, &etb);
    if (call_trace(tstate, frame, PyTrace_RETURN, Py_None) == 0) {
        _PyErr_Restore(tstate, et, ev, etb);
    }
    else {
        Py_XDECREF(et);
        Py_XDECREF(ev);
        Py_XDECREF(etb);
    }
}

/* PEP 509 tags of dicts the loop changed in place (pa_seam311.h: PA_DICT_CHANGED). */
uint64_t pa_dict_version = (uint64_t)1 << 62;
