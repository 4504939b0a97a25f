/* pa_frame311.h -- the hot half of the frame seam for CPython 3.11 (the rest, and why it
 * exists, is in pa_frame311.c).  Pushing and popping a frame happen at every Python-to-Python
 * call the loop runs inline; here they are inline functions, so a call costs no C call into
 * the seam for them.  The slow paths (a new data-stack chunk, a frame object that outlives
 * its frame) stay out of line.
 */
#ifndef PA_FRAME311_H
#define PA_FRAME311_H

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

/* Release a frame's references (its frame object takes the data if it outlives it). */
static PA_ALWAYS_INLINE void
pa_clear_frame(PyThreadState *tstate, _PyInterpreterFrame *frame)
{
    PA_ASSERT(tstate->cframe->current_frame != frame);
    if (frame->frame_obj != NULL) {
        pa_clear_frame_with_object(tstate, frame);
        return;
    }
    for (int i = 0; i < frame->stacktop; i++) {
        Py_XDECREF(frame->localsplus[i]);
    }
    Py_XDECREF(frame->f_locals);
    Py_DECREF(frame->f_func);
    Py_DECREF(frame->f_code);
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
    tstate->recursion_remaining--;      /* as CPython: a __del__ run here has one level less */
    pa_clear_frame(tstate, frame);
    tstate->recursion_remaining++;
    pa_pop_frame(tstate, frame);
}

/* RETURN_GENERATOR: a new generator, coroutine or async generator that takes over `frame`'s
 * data (which has run up to its RETURN_GENERATOR; the frame keeps no references), in
 * FRAME_CREATED state; NULL with an exception set. */
PyObject *pa_make_generator(PyThreadState *tstate, _PyInterpreterFrame *frame);

#endif
