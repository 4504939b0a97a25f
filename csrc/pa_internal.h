/* pa_internal.h -- what the C core's files share (not visible to cffi).
 *
 * The core reaches into CPython 3.11's internal structures (frames, thread state, code
 * objects) through the internal headers; everything version-specific about frames lives
 * behind the functions declared in the "frame seam" below (pa_frame311.c).
 */
#ifndef PA_INTERNAL_H
#define PA_INTERNAL_H

#ifndef Py_BUILD_CORE
#  define Py_BUILD_CORE 1
#endif
#include <Python.h>
#include <stdint.h>
#include <stdbool.h>

#if PY_VERSION_HEX < 0x030B0000 || PY_VERSION_HEX >= 0x030C0000
#  error "this C core targets CPython 3.11"
#endif

#include "internal/pycore_frame.h"
#include "internal/pycore_code.h"
#include "internal/pycore_pystate.h"
#include "internal/pycore_ceval.h"
#include "internal/pycore_genobject.h"
#include "internal/pycore_dict.h"
#include "internal/pycore_pyerrors.h"
#include "internal/pycore_object.h"

#include "pa_cdef.h"

#ifdef PA_DEBUG
#  define PA_ASSERT(x) do { if (!(x)) { fprintf(stderr, "pyadapt: assertion failed: %s (%s:%d)\n", #x, __FILE__, __LINE__); abort(); } } while (0)
#else
#  define PA_ASSERT(x) ((void)0)
#endif

/* ---- opcodes (from the single definition in pa_opcodes.h) ---- */
#include "pa_opcodes.h"
enum {
#define PA_OP0(NAME, FLAGS) PA_##NAME,
#define PA_OPC(NAME, CACHE, FLAGS) PA_##NAME,
    PA_OPCODE_LIST
#undef PA_OP0
#undef PA_OPC
    PA_OPCODE_COUNT
};
#define PA_CACHE_UNITS(T) ((int)(sizeof(T) / sizeof(uint32_t)))

/* ---- the frame seam (3.11) ---- */

/* Push a frame of `size` slots on the thread's frame stack (CPython's own data stack). */
_PyInterpreterFrame *pa_push_frame(PyThreadState *tstate, size_t size);
/* Clear an owned-by-thread frame that is no longer current, and pop it. */
void pa_clear_and_pop_frame(PyThreadState *tstate, _PyInterpreterFrame *frame);
/* The frame object of `frame` (borrowed), creating it if needed; NULL with an exception set on failure. */
PyFrameObject *pa_frame_object(PyThreadState *tstate, _PyInterpreterFrame *frame);

/* CPython offset (in code units) of the last inline cache entry of a CALL, relative to
 * the CALL: a caller frame suspended in an inlined call shows this as its f_lasti. */
#define PA_CPY_CALL_LAST_CACHE 4

/* ---- units ---- */
pa_unit *pa_unit_for_code(PyCodeObject *co);          /* attached unit or NULL (no compile) */
pa_unit *pa_get_or_compile(PyCodeObject *co);         /* compile on first sight; never NULL-with-error */

/* ---- the loop ---- */
PyObject *pa_execute(PyThreadState *tstate, _PyInterpreterFrame *frame, int throwflag);
extern int pa_hook_installed;
void pa_count_fallback(int reason);

/* Python-level helpers for rare opcodes (pyadapt._runtime), set at init. */
extern PyObject *pa_rt_prep_reraise_star, *pa_rt_match_class, *pa_rt_match_keys,
                *pa_rt_exception_group_match;

#endif
