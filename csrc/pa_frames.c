/* pa_frames.c -- frames, generators and the eval breaker: what libpython hides and pyadapt's
 * loop needs, written once for every CPython version over the seam's names (pa_seam3XX.h).
 *
 * pyadapt's loop evaluates CPython's own _PyInterpreterFrame structures, on the thread's
 * own frame stack, so that everything that inspects frames (tracebacks, sys._getframe,
 * generators, the GC) keeps working.  libpython does not export the functions that push,
 * clear and pop those frames (_PyThreadState_PushFrame, _PyFrame_ClearExceptCode,
 * _PyThreadState_PopFrame, _PyFrame_MakeAndSetFrameObject), nor _Py_MakeCoro, so this file
 * provides equivalents written against the data structures and exported API only.
 */
#include "pa_internal.h"
#include "opcode.h"

/* Sizes CPython (3.11 and 3.12) uses for its data-stack chunks (Python/pystate.c). */
#define PA_DATA_STACK_CHUNK_SIZE (16 * 1024)
#define PA_MINIMUM_OVERHEAD 1000

/* Chunks must come from the arena allocator: CPython frees them with
 * _PyObject_VirtualFree, i.e. the same allocator, when it pops a frame itself. */
static void *
arena_alloc(size_t size)
{
    PyObjectArenaAllocator arena;
    PyObject_GetArenaAllocator(&arena);
    return arena.alloc(arena.ctx, size);
}

static void
arena_free(void *ptr, size_t size)
{
    PyObjectArenaAllocator arena;
    PyObject_GetArenaAllocator(&arena);
    arena.free(arena.ctx, ptr, size);
}

static _PyInterpreterFrame *
push_chunk(PyThreadState *tstate, size_t size)
{
    size_t alloc = PA_DATA_STACK_CHUNK_SIZE;
    while (alloc < sizeof(PyObject *) * (size + PA_MINIMUM_OVERHEAD)) {
        alloc *= 2;
    }
    _PyStackChunk *chunk = arena_alloc(alloc);
    if (chunk == NULL) {
        return NULL;
    }
    chunk->previous = tstate->datastack_chunk;
    chunk->size = alloc;
    chunk->top = 0;
    if (tstate->datastack_chunk != NULL) {
        tstate->datastack_chunk->top =
            tstate->datastack_top - &tstate->datastack_chunk->data[0];
    }
    tstate->datastack_chunk = chunk;
    tstate->datastack_limit = (PyObject **)((char *)chunk + alloc);
    /* A root chunk is never popped: skip its first slot, as CPython does, so that popping
     * the first frame never frees it. */
    PyObject **base = &chunk->data[chunk->previous == NULL];
    tstate->datastack_top = base + size;
    return (_PyInterpreterFrame *)base;
}

_PyInterpreterFrame *
pa_push_frame_slow(PyThreadState *tstate, size_t size)
{
    _PyInterpreterFrame *res = push_chunk(tstate, size);
    if (res == NULL) {
        PyErr_NoMemory();
    }
    return res;
}

void
pa_pop_frame_slow(PyThreadState *tstate, _PyInterpreterFrame *frame)
{
    _PyStackChunk *chunk = tstate->datastack_chunk;
    (void)frame;
    PA_ASSERT((PyObject **)frame == &chunk->data[0]);
    _PyStackChunk *previous = chunk->previous;
    PA_ASSERT(previous != NULL);
    tstate->datastack_top = &previous->data[previous->top];
    tstate->datastack_chunk = previous;
    tstate->datastack_limit = (PyObject **)((char *)previous + previous->size);
    arena_free(chunk, chunk->size);
}

PyFrameObject *
pa_frame_object(PyThreadState *tstate, _PyInterpreterFrame *frame)
{
    if (frame->frame_obj != NULL) {
        return frame->frame_obj;
    }
    /* PyEval_GetFrame() is the exported way to materialize a frame object; it works on
     * the thread's current frame, so point that at `frame` for the duration. */
    _PyInterpreterFrame *saved = PA_CURRENT_FRAME(tstate);
    PA_CURRENT_FRAME(tstate) = frame;
    PyFrameObject *f = PyEval_GetFrame();
    PA_CURRENT_FRAME(tstate) = saved;
    if (f == NULL && !PyErr_Occurred()) {
        PyErr_NoMemory();
    }
    return f;
}

/* The frame dies while its frame object lives on (a traceback or a saved sys._getframe()
 * holds it): move the frame's data into the frame object, as CPython does. */
static void
frame_object_takes_ownership(PyThreadState *tstate, PyFrameObject *f,
                             _PyInterpreterFrame *frame)
{
    Py_ssize_t size = (char *)&frame->localsplus[frame->stacktop] - (char *)frame;
    Py_INCREF(PA_FRAME_CODE(frame));  /* the caller still releases the frame's own */
    memcpy((_PyInterpreterFrame *)f->_f_frame_data, frame, size);
    frame = (_PyInterpreterFrame *)f->_f_frame_data;
    f->f_frame = frame;
    frame->owner = FRAME_OWNED_BY_FRAME_OBJECT;
    if (_PyFrame_IsIncomplete(frame)) {
        /* Dead before its first RESUME: pretend that RESUME ran. */
        PyCodeObject *code = PA_FRAME_CODE(frame);
        PA_FRAME_SET_LAST_INSTR(frame, _PyCode_CODE(code) + code->_co_firsttraceable);
    }
    _PyInterpreterFrame *prev = frame->previous;
    while (prev != NULL && _PyFrame_IsIncomplete(prev)) {
        prev = prev->previous;
    }
    if (prev != NULL) {
        PyFrameObject *back = pa_frame_object(tstate, prev);
        if (back == NULL) {
            PyErr_Clear();   /* as CPython: nothing to do about a memory error here */
        }
        else {
            Py_INCREF(back);
            f->f_back = back;
        }
        frame->previous = NULL;
    }
    if (!PyObject_GC_IsTracked((PyObject *)f)) {
        PyObject_GC_Track((PyObject *)f);
    }
}

void
pa_clear_frame_with_object(PyThreadState *tstate, _PyInterpreterFrame *frame)
{
    PyFrameObject *f = frame->frame_obj;
    frame->frame_obj = NULL;
    if (Py_REFCNT(f) > 1) {
        frame_object_takes_ownership(tstate, f, frame);
        Py_DECREF(f);
        return;
    }
    Py_DECREF(f);
    pa_clear_frame_except_code(tstate, frame);      /* frame_obj is NULL now: the plain path */
}

/* ---- generator creation (CPython's _Py_MakeCoro and RETURN_GENERATOR; neither is exported
 * by 3.11 or 3.12, so pyadapt makes the object itself, field by field as genobject.c does) */

/* cr_origin: (filename, line, function) of the `depth` innermost complete frames from
 * `frame` outwards, as sys.set_coroutine_origin_tracking_depth asks. */
static PyObject *
coroutine_origin(int depth, _PyInterpreterFrame *frame)
{
    int count = 0;
    for (_PyInterpreterFrame *f = frame; f != NULL && count < depth; f = f->previous) {
        count++;
    }
    PyObject *origin = PyTuple_New(count);
    if (origin == NULL) {
        return NULL;
    }
    for (int i = 0; i < count; i++, frame = frame->previous) {
        PyCodeObject *code = PA_FRAME_CODE(frame);
        int line = PyCode_Addr2Line(code, _PyInterpreterFrame_LASTI(frame) * sizeof(_Py_CODEUNIT));
        PyObject *info = Py_BuildValue("OiO", code->co_filename, line, code->co_name);
        if (info == NULL) {
            Py_DECREF(origin);
            return NULL;
        }
        PyTuple_SET_ITEM(origin, i, info);
    }
    return origin;
}

static _PyInterpreterFrame *
first_complete(_PyInterpreterFrame *frame)
{
    while (frame != NULL && _PyFrame_IsIncomplete(frame)) {
        frame = frame->previous;
    }
    return frame;
}

PyObject *
pa_make_generator(PyThreadState *tstate, _PyInterpreterFrame *frame)
{
    PyCodeObject *code = PA_FRAME_CODE(frame);
    PyFunctionObject *func = PA_FRAME_FUNC(frame);
    int kind = code->co_flags & (CO_GENERATOR | CO_COROUTINE | CO_ASYNC_GENERATOR);
    PyTypeObject *type = kind == CO_COROUTINE ? &PyCoro_Type
                         : kind == CO_ASYNC_GENERATOR ? &PyAsyncGen_Type : &PyGen_Type;
    PyObject *origin = NULL;
    if (kind == CO_COROUTINE && tstate->coroutine_origin_tracking_depth > 0) {
        origin = coroutine_origin(tstate->coroutine_origin_tracking_depth,
                                  first_complete(frame->previous));
        if (origin == NULL) {
            return NULL;
        }
    }
    PyGenObject *gen = PyObject_GC_NewVar(PyGenObject, type,
                                          code->co_nlocalsplus + code->co_stacksize);
    if (gen == NULL) {
        Py_XDECREF(origin);
        return NULL;
    }
    PA_GEN_SET_CODE(gen, code);
    gen->gi_weakreflist = NULL;
    gen->gi_name = Py_NewRef(func->func_name);
    gen->gi_qualname = Py_NewRef(func->func_qualname);
    gen->gi_exc_state.exc_value = NULL;
    gen->gi_exc_state.previous_item = NULL;
    gen->gi_origin_or_finalizer = origin;
    gen->gi_hooks_inited = 0;
    gen->gi_closed = 0;
    gen->gi_running_async = 0;
    /* The frame's data moves into the generator: its references go with it. */
    _PyInterpreterFrame *gen_frame = (_PyInterpreterFrame *)gen->gi_iframe;
    memcpy(gen_frame, frame, (char *)&frame->localsplus[frame->stacktop] - (char *)frame);
    gen_frame->previous = NULL;
    gen_frame->owner = FRAME_OWNED_BY_GENERATOR;
    if (gen_frame->frame_obj != NULL) {
        gen_frame->frame_obj->f_frame = gen_frame;
    }
    frame->frame_obj = NULL;
    gen->gi_frame_state = FRAME_CREATED;
    _PyObject_GC_TRACK(gen);
    return (PyObject *)gen;
}

/* ---- generators run inline, what they await ---- */

void
pa_gen_finish_inline(PyThreadState *tstate, _PyInterpreterFrame *gen_frame, int raised)
{
    PyGenObject *gen = _PyFrame_GetGenerator(gen_frame);
    tstate->exc_info = gen->gi_exc_state.previous_item;
    gen->gi_exc_state.previous_item = NULL;
    gen_frame->previous = NULL;
    /* 3.12's compiler wraps a generator's body in a handler that does this already */
    if (!PA_GEN_BODY_CONVERTS_STOPITERATION && raised
            && PyErr_ExceptionMatches(PyExc_StopIteration)) {
        const char *msg = PyCoro_CheckExact(gen) ? "coroutine raised StopIteration"
                                                 : "generator raised StopIteration";
        _PyErr_FormatFromCause(PyExc_RuntimeError, "%s", msg);
    }
    Py_CLEAR(gen->gi_exc_state.exc_value);
    gen->gi_frame_state = FRAME_CLEARED;
    pa_clear_frame_except_code(tstate, gen_frame);
    PA_GEN_FRAME_RELEASE_CODE(gen_frame);
}

PyObject *
pa_gen_yielding_from(PyGenObject *gen)
{
    if (gen->gi_frame_state >= FRAME_CLEARED || gen->gi_frame_state == FRAME_CREATED) {
        return NULL;
    }
    _PyInterpreterFrame *f = (_PyInterpreterFrame *)gen->gi_iframe;
    _Py_CODEUNIT next = *PA_SUSPENDED_RESUME_INSTR(f);
    if (!PA_IS_RESUME(PA_CODEUNIT_OPCODE(next)) || PA_RESUME_WHERE(PA_CODEUNIT_OPARG(next)) < 2) {
        return NULL;
    }
    return Py_NewRef(f->localsplus[f->stacktop - 1]);
}

#ifndef PA_SEAM_HANDLE_PENDING
/* ---- the eval breaker (CPython's handler is static in 3.11 and 3.12) ---- */

int
pa_handle_pending(PyThreadState *tstate)
{
    PyInterpreterState *interp = tstate->interp;
    struct _ceval_state *ceval2 = &interp->ceval;
    if (PA_MAKE_PENDING_CALLS(tstate) < 0) {
        return -1;
    }
    if (pa_run_scheduled_gc(tstate) < 0) {
        return -1;
    }
    if (_Py_atomic_load_relaxed(&ceval2->gil_drop_request)) {
        PyThreadState *saved = PyEval_SaveThread();
        PyEval_RestoreThread(saved);
    }
    if (tstate->async_exc != NULL) {
        PyObject *exc = tstate->async_exc;
        tstate->async_exc = NULL;
        pa_async_exc_taken(interp);
        _PyErr_SetNone(tstate, exc);
        Py_DECREF(exc);
        return -1;
    }
    return 0;
}
#endif

#ifdef PA_SEAM_PY_RECURSION_COUNTER
/* ---- the Python recursion limit of a seam that counts Python frames apart (3.12+) ---- */

int
pa_py_recursion_exceeded(PyThreadState *tstate)
{
    if (tstate->recursion_headroom) {
        if (tstate->py_recursion_remaining < -50) {
            Py_FatalError("Cannot recover from Python stack overflow.");
        }
        return 0;
    }
    if (tstate->py_recursion_remaining <= 0) {
        tstate->recursion_headroom++;
        _PyErr_Format(tstate, PyExc_RecursionError, "maximum recursion depth exceeded");
        tstate->recursion_headroom--;
        return -1;
    }
    return 0;
}
#endif

#ifdef PA_SEAM_TRACER_EVENTS
/* ---- tracer events pyadapt sends itself, on a seam that sends those of an exception (3.12+:
 * sys.settrace's RAISE and PY_UNWIND callbacks, Python/legacy_tracing.c) ---- */

/* `what` with `arg` to the thread's c_tracefunc for `frame`, if sys.settrace's tool has
 * `event` on, as CPython's loop would call it: 0, or -1 with the tracer's exception set */
static int
call_legacy_trace(PyThreadState *tstate, _PyInterpreterFrame *frame, int event, int what,
                  PyObject *arg)
{
    PyInterpreterState *interp = tstate->interp;
    if (tstate->tracing || tstate->c_tracefunc == NULL
            || !(interp->monitors.tools[event] & (1 << PY_MONITORING_SYS_TRACE_ID))
            || interp->monitoring_callables[PY_MONITORING_SYS_TRACE_ID][event] == NULL) {
        return 0;
    }
    PyFrameObject *f = pa_frame_object(tstate, frame);
    if (f == NULL) {
        return -1;
    }
    int old_what = tstate->what_event;
    tstate->what_event = event;
    tstate->tracing++;
    Py_INCREF(f);
    int err = tstate->c_tracefunc(tstate->c_traceobj, f, what, arg);
    Py_DECREF(f);
    tstate->tracing--;
    tstate->what_event = old_what;
    return err;
}

void
pa_trace_exception(PyThreadState *tstate, _PyInterpreterFrame *frame)
{
    PyObject *exc = PyErr_GetRaisedException();
    if (exc == NULL) {
        return;
    }
    PyObject *tb = PyException_GetTraceback(exc);
    PyObject *arg = PyTuple_Pack(3, (PyObject *)Py_TYPE(exc), exc, tb != NULL ? tb : Py_None);
    Py_XDECREF(tb);
    if (arg == NULL) {
        Py_DECREF(exc);      /* the MemoryError replaces it */
        return;
    }
    int err = call_legacy_trace(tstate, frame, PY_MONITORING_EVENT_RAISE, PyTrace_EXCEPTION,
                                arg);
    Py_DECREF(arg);
    if (err == 0) {
        PyErr_SetRaisedException(exc);
    }
    else {
        Py_DECREF(exc);      /* the tracer's exception replaces it */
    }
}

void
pa_trace_return_with_exception(PyThreadState *tstate, _PyInterpreterFrame *frame)
{
    PyObject *exc = PyErr_GetRaisedException();
    if (call_legacy_trace(tstate, frame, PY_MONITORING_EVENT_PY_UNWIND, PyTrace_RETURN,
                          Py_None) == 0) {
        PyErr_SetRaisedException(exc);
    }
    else {
        Py_XDECREF(exc);
    }
}
#endif
