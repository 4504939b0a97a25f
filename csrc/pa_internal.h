/* pa_internal.h -- what the C core's files share (not visible to cffi).
 *
 * The core reaches into CPython's internal structures (frames, thread state, code objects)
 * through the internal headers.  Everything that differs between CPython versions lives in
 * the running version's seam, csrc/pa_seam3XX.h (inline accessors and helpers under
 * version-neutral names) and csrc/pa_frame3XX.c (its out-of-line half), chosen below: the
 * only test of PY_VERSION_HEX in the core.
 */
#ifndef PA_INTERNAL_H
#define PA_INTERNAL_H

#ifndef Py_BUILD_CORE
#  define Py_BUILD_CORE 1
#endif
#include <patchlevel.h>              /* PY_VERSION_HEX, before Python.h */
#if PY_VERSION_HEX >= 0x030C0000 && !defined(Py_BUILD_CORE_MODULE)
/* 3.12: without it _PyThreadState_GET() reads a thread-local libpython hides ("undefined
 * symbol: _Py_tss_tstate" at import) */
#  define Py_BUILD_CORE_MODULE 1
#endif
#include <Python.h>
#include <stdint.h>
#include <stdbool.h>

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
#define PA_OP0(NAME, ...) PA_##NAME,
#define PA_OPC(NAME, ...) PA_##NAME,
#define PA_SPEC(NAME, ...) PA_##NAME,
    PA_OPCODE_LIST
#undef PA_OP0
#undef PA_OPC
#undef PA_SPEC
    PA_OPCODE_COUNT
};
#define PA_CACHE_UNITS(T) ((int)(sizeof(T) / sizeof(uint32_t)))

/* For the helpers of the loop's hottest paths (frame push, clear and pop at every inline
 * call and return): gcc stops inlining into pa_execute, a very large function, long before
 * these small functions, and a call costs a prologue, an epilogue and spilled registers. */
#if defined(__GNUC__) || defined(__clang__)
#  define PA_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#  define PA_ALWAYS_INLINE inline
#endif

/* The instruction word and the counter: PA_OPCODE, PA_OPARG, PA_COUNTER_* (pa_word.h). */
#include "pa_word.h"

/* ---- the version seam: the one choice of CPython version in the core ---- */

#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000
#  include "pa_seam311.h"
#elif PY_VERSION_HEX >= 0x030C0000 && PY_VERSION_HEX < 0x030D0000
#  include "pa_seam312.h"
#elif PY_VERSION_HEX >= 0x030D0000 && PY_VERSION_HEX < 0x030E0000
#  include "pa_seam313.h"
#else
#  error "pyadapt's C core has no seam for this CPython version (see csrc/pa_seam3XX.h)"
#endif
#include "pa_frames.h"
#if PA_STACK_TURNED_OVER
/* Where the saved locals of a comprehension are on a frame's stack (base..top) before its
 * instruction `next` (csrc/pa_compile.c: the compiler's walk made again): 0 and *saved, or
 * -1 if it cannot be told (the frame then changes loops later). */
int pa_saved_slots_at(pa_unit *u, const uint32_t *next, PyObject **base, PyObject **top,
                      uint32_t *saved);
#endif
/* The frame object of `frame` (borrowed), creating it if needed; NULL with an exception set on failure. */
PyFrameObject *pa_frame_object(PyThreadState *tstate, _PyInterpreterFrame *frame);

/* ---- configuration and specialization ---- */
extern pa_config_t pa_config;
extern uint8_t pa_family_of[256];     /* opcode -> generic opcode of its family */
extern uint8_t pa_adaptive_of[256];   /* generic opcode -> its adaptive form (0: none) */


/* Specializers: rewrite the instruction at `instr` (word + cache) from live operands, or
 * record why not and back off.  They never leave an exception set. */
void pa_specialize_load_attr(PyObject *owner, PyObject *name, uint32_t *instr);
void pa_specialize_load_method(PyObject *owner, PyObject *name, uint32_t *instr);
void pa_specialize_store_attr(PyObject *owner, PyObject *name, uint32_t *instr);
/* A polymorphic LOAD_ATTR_/STORE_ATTR_INSTANCE_VALUE met another type: the type slot
 * (pa_word.h) that now holds it, or PA_TYPE_SLOT_FREE if it does not. */
uint32_t pa_add_load_attr_type(PyObject *owner, PyObject *name, uint32_t *instr);
uint32_t pa_add_store_attr_type(PyObject *owner, PyObject *name, uint32_t *instr);
/* A polymorphic CALL_PY_EXACT_ARGS met another function: 1 if it now holds that function's
 * version too, 0 if not. */
int pa_add_call_py_function(PyObject *callable, uint32_t *instr, int nargs);
void pa_specialize_load_global(PyObject *globals, PyObject *builtins, PyObject *name,
                               uint32_t *instr);
void pa_specialize_binary_op(PyObject *lhs, PyObject *rhs, uint32_t *instr, int oparg,
                             PyObject **locals);
void pa_specialize_compare_op(PyObject *lhs, PyObject *rhs, uint32_t *instr, int oparg);
void pa_specialize_binary_subscr(PyObject *container, PyObject *sub, uint32_t *instr);
void pa_specialize_store_subscr(PyObject *container, PyObject *sub, uint32_t *instr);
void pa_specialize_unpack_sequence(PyObject *seq, uint32_t *instr, int oparg);
void pa_specialize_contains_op(PyObject *key, PyObject *container, uint32_t *instr);
void pa_specialize_to_bool(PyObject *value, uint32_t *instr);
void pa_specialize_call(PyObject *callable, uint32_t *instr, int nargs, PyObject *kwnames,
                        int is_meth);
void pa_specialize_for_iter(PyObject *iter, uint32_t *instr);
void pa_specialize_send(PyObject *receiver, uint32_t *instr);
void pa_specialize_load_super(PyObject *global_super, PyObject *klass, PyObject *self, PyObject *name,
                              uint32_t *instr, int method);
/* A function is "plain" while calling it runs its code: its vectorcall is CPython's own
 * (read from a function at import, pa_specialize_init: 3.13 does not export it).  A function
 * whose vectorcall was replaced (PyFunction_SetVectorcall, 3.12+) is called through it, as
 * CPython's CALL does, never inline, and has no version to specialize on. */
extern vectorcallfunc pa_function_vectorcall;
#define PA_FUNCTION_PLAIN(func) (((PyFunctionObject *)(func))->vectorcall == pa_function_vectorcall)
int pa_specialize_init(void);
/* Own versions of the version tags CPython hands out with hidden functions. */
uint32_t pa_keys_version(PyDictKeysObject *keys);
uint32_t pa_func_version(PyFunctionObject *func);
/* Index of `name` (an exact str) in a unicode-keys dict's entries, or -1 (through its hash table). */
Py_ssize_t pa_keys_index(PyDictKeysObject *keys, PyObject *name);

/* ---- what the specializer saw, per site (csrc/pa_sites.c) ---- */

/* The record of the site at `instr` with one more attempt counted (and a deopt, if the
 * counter says one came before), or NULL (pa_config.record_sites off, a scratch copy, out of
 * memory).  The callers look at what the attempt met only when it is not NULL. */
pa_site_slot *pa_site_attempt(const uint32_t *instr);
/* After the attempt: what it saw, with its outcome read from the instruction. */
void pa_site_saw(pa_site_slot *r, const uint32_t *instr, const char *type0,
                 const char *type1, const char *detail);
/* At a miss of the specialized form at `instr` (before it deoptimizes), if
 * pa_config.record_misses: the operands' types, with the form as outcome and PA_SEEN_MISSED
 * as detail.  Called at every miss (a test of the flag in the loop itself moved gcc's
 * register allocation: +3% on fib); nothing on a hit. */
void pa_site_missed(const uint32_t *instr, PyObject *const *stack_pointer, int family,
                    int oparg);
extern const char *const PA_SEEN_MISSED;
/* The records of `u` as pa_site_record[] (bytes), copied in one step under the GIL. */
PyObject *pa_site_records_bytes(pa_unit *u);
/* `tp`'s name, interned for the life of the process. */
const char *pa_type_name(PyTypeObject *tp);

/* ---- units (csrc/pa_units.c) ---- */

/* The unit store: code object address -> unit, open addressing (see pa_units.c).  The
 * fields a lookup reads sit together, so the inline first probe below is a few
 * instructions: every hook entry and every frame the loop enters or returns to does one. */
typedef struct {
    PyCodeObject *code;      /* NULL: an empty slot */
    pa_unit *unit;
} pa_unit_slot;
typedef struct {
    pa_unit_slot *table;
    int shift;               /* 64 - log2(capacity): the hash's top bits index the table */
    size_t mask;             /* capacity - 1 */
} pa_units_index;
extern pa_units_index pa_units;

static inline size_t
pa_code_hash(PyCodeObject *co, int shift)
{
    return (size_t)(((uint64_t)(uintptr_t)co * 0x9E3779B97F4A7C15ull) >> shift);
}

/* The rest of a probe run from `co`'s home slot `i`, out of line; it moves a code object
 * found further on into its home slot, so the first probe decides for hot code. */
pa_unit *pa_unit_probe(PyCodeObject *co, size_t i);

/* The unit attached to `co`, or NULL (never compiles).  Always inlined: in pa_execute, past
 * gcc's inlining budget, a plain inline function became a call at every frame entry and
 * return. */
static PA_ALWAYS_INLINE pa_unit *
pa_unit_for_code(PyCodeObject *co)
{
    size_t i = pa_code_hash(co, pa_units.shift);
    pa_unit_slot *slot = &pa_units.table[i];
    if (__builtin_expect(slot->code == co, 1)) {
        return slot->unit;
    }
    return pa_unit_probe(co, i);
}

/* The return cache: what the loop's LOAD_CALLER_STATE derived for a frame suspended in a
 * call, so that a return into it does not look its unit up again nor read from_cpy (each a
 * likely first-level data miss: the unit table, the unit and its map are spread over memory
 * that CPython's own return does not touch).  Direct-mapped on the instruction the frame is
 * suspended at (PA_CALLER_KEY: its address in the code object's bytecode; on 3.13 with
 * return_offset's flag, since a frame suspended in a call shows the CALL itself whether it
 * goes on past it or not), filled by the first return there.  Everything an entry holds
 * follows from that address alone -- the code object it lies in, so its unit, and the place
 * in the unit -- not from the frame: a call site's entry serves every frame returning there,
 * at any depth of a recursion.  An address names one live code object; when a code object
 * dies, its unit is freed and pa_unit_free empties the cache (when the unit is
 * PA_UNIT_CACHED: an entry's key lies in the code object of the unit it names, so a unit no
 * entry ever named leaves none behind), before another code object can take the address.
 * configure()'s re-quickening rewrites a unit's code in place (the pointers stay valid).
 * GIL-protected. */
typedef struct {
    _Alignas(64) const void *lasti;   /* PA_CALLER_KEY(frame) at the return; NULL: empty */
    pa_unit *unit;
    uint32_t *next_instr;        /* where the caller goes on */
    uint32_t *code_base;         /* unit->code */
    intptr_t to_cpy_delta;       /* see CPY_OFFSET in pa_eval.c */
    PyObject *names, *consts;    /* the code object's co_names, co_consts */
} pa_caller_entry;
#define PA_CALLER_CACHE_SIZE 64
extern pa_caller_entry pa_caller_cache[PA_CALLER_CACHE_SIZE];
/* The entry of a table of `size` (a power of two) for a key that is a bytecode address:
 * code units are 2 bytes, and the keys of one table lie at least an instruction apart. */
static inline size_t
pa_code_address_slot(const void *key, size_t size)
{
    return ((uintptr_t)key >> 1) & (size - 1);
}

/* The resume cache: the same registers for a suspended generator or coroutine that
 * FOR_ITER_GEN or SEND_GEN run inline, so that a resume neither looks its unit up nor reads
 * from_cpy (what a native resume does not touch either: it jumps to the frame's instruction
 * pointer).  Keyed by the instruction the frame goes on at (PA_SUSPENDED_RESUME_INSTR: the
 * RESUME after its yield, or the first one of a new generator), and valid as the return cache
 * is (an address names one live code object, whose unit is PA_UNIT_CACHED).  A table of its
 * own: a resume key and a return key mean different places (the instruction itself against
 * the one after it), and a generator pipeline fills both. */
#define PA_RESUME_CACHE_SIZE 32
extern pa_caller_entry pa_resume_cache[PA_RESUME_CACHE_SIZE];

/* The shared attribute table: what a megamorphic site (LOAD_ATTR_INSTANCE_VALUE_MEGA,
 * LOAD_METHOD_WITH_VALUES_MEGA) knows of each (type version, name) it has met, one table per
 * kind, direct-mapped.  An entry is filled by pa_attr_table_fill from the same decision a
 * first specialization makes, and is valid while the type keeps that version: CPython never
 * hands a version out twice, so an entry of a type that changed or died matches no live
 * type.  `name` is a strong reference, so its address cannot come back as another name;
 * `descr` is borrowed from the type, like a site cache's.  Main interpreter only (the sites
 * become megamorphic there only); GIL-protected. */
typedef struct {
    uint32_t type_version;       /* 0: empty (no type has version 0) */
    uint32_t aux;                /* PA_ATTR_VALUE: the values index; PA_ATTR_METHOD: the
                                    version of the type's shared keys (the name not in them) */
    PyObject *name;              /* strong */
    PyObject *descr;             /* PA_ATTR_METHOD: the method, borrowed from the type */
    void *pad_;                  /* 32 bytes: a set of two is one cache line */
} pa_attr_entry;
#define PA_ATTR_VALUE 0
#define PA_ATTR_METHOD 1
#define PA_ATTR_TABLE_BITS 9         /* sets of two entries per kind: 2 x 16 KiB */
extern pa_attr_entry pa_attr_table[2][1 << PA_ATTR_TABLE_BITS][2];
/* The set of (type_version, name): two entries, the one filled last first.  Versions are
 * consecutive numbers and names often neighbouring addresses (one-letter names are static
 * objects side by side), so the hash mixes nonlinearly: a linear combination of the two
 * sent (v, "v") and (v - 1, "w") to one set. */
static inline pa_attr_entry *
pa_attr_set(int kind, uint32_t type_version, PyObject *name)
{
    uint32_t h = (type_version * 2654435761u) ^ (uint32_t)((uintptr_t)name >> 4);
    h = (h ^ (h >> 15)) * 2246822519u;
    return pa_attr_table[kind][h >> (32 - PA_ATTR_TABLE_BITS)];
}
/* The entry of (type_version, name), or NULL. */
static inline pa_attr_entry *
pa_attr_find(int kind, uint32_t type_version, PyObject *name)
{
    pa_attr_entry *set = pa_attr_set(kind, type_version, name);
    if (set[0].type_version == type_version && set[0].name == name) {
        return &set[0];
    }
    if (set[1].type_version == type_version && set[1].name == name) {
        return &set[1];
    }
    return NULL;
}
/* Fill the entry of (Py_TYPE(owner)'s version, name) for a megamorphic site at `instr`:
 * the entry, or NULL if that type does not take this kind here (the caller counts a miss).
 * Records what it saw in the site's record.  Never leaves an exception set.  A site counts
 * its fills and stops filling after a number of them (FILL_ATTR_ENTRY in pa_eval.c). */
pa_attr_entry *pa_attr_table_fill(PyObject *owner, PyObject *name, uint32_t *instr, int kind);

/* A unit without code for a cold code object (PA_FB_COLD); NULL out of memory. */
pa_unit *pa_unit_new_cold(void);
/* Give the attached cold unit `cold` the compiled contents of `made`; frees `made`. */
void pa_unit_adopt(pa_unit *cold, pa_unit *made);
/* Attach a new unit to `co` (which has none): 0, or -1 out of memory (no exception set). */
int pa_unit_attach(PyCodeObject *co, pa_unit *u);
/* Set up the store: wrap the code type's deallocator (once per process). */
void pa_units_init(void);
/* All attached units, linked through registry_next (for configure() and introspection). */
extern pa_unit *pa_registry_head;
/* A unit with code of its own: not cold (no code yet), not rejected (an empty one). */
#define PA_UNIT_COMPILED(u) ((u)->reject_reason == PA_FB_NONE)
/* Quicken u->code, which holds the generic code, for the current configuration (pa_config). */
void pa_unit_quicken(pa_unit *u);
/* Add the per-site hit counts of `u` into the counts of its opcodes, `stride` bytes apart
 * from hits[0] (pa_units.c). */
void pa_unit_add_site_hits(pa_unit *u, uint64_t *hits, size_t stride);

/* The first instruction unit of every instruction of `u`, in order (every form of a family
 * and a superinstruction has its first instruction's cache size: tests/test_memory.py). */
#define FOR_EACH_INSTRUCTION(u, i) \
    for (int i = 0; i < (u)->ncode; i += 1 + pa_opinfo_table[PA_OPCODE((u)->code[i])].ncache)

/* Compile `co` into a new unit (csrc/pa_compile.c); NULL with *err saying why (no
 * exception set).  Runs no Python code. */
pa_unit *pa_compile(PyCodeObject *co, const char **err);
/* The same, its code left generic (not quickened): for re-quickening and dis. */
pa_unit *pa_compile_generic(PyCodeObject *co, const char **err);
/* Rewrite u->code for the current configuration from its generic code, compiled again from
 * its code object (the unit keeps no copy of it): 0, or -1 (no exception set). */
int pa_unit_requicken(pa_unit *u);
/* 1 if `co` has a backward jump, 0 if not, -1 if unreadable (no exception set). */
int pa_code_has_loop(PyCodeObject *co);
pa_unit *pa_get_or_compile(PyCodeObject *co);         /* compile on first sight (or now, if
                                                          cold); never NULL-with-error */
/* The unit for a call from pyadapt's loop: compiled, or not compiled (NULL or a cold unit)
 * when `co` is still cold in whole-process mode; the caller then calls through C, and the
 * hook counts the entry as it does any other (pa_hook.c). */
pa_unit *pa_unit_for_call(PyCodeObject *co);

/* The most keyword-only parameters CALL_PY_VARARGS binds (its binder keeps their defaults
 * in an array on the C stack); a function with more runs the generic CALL. */
#define PA_KWONLY_MAX 8

/* ---- the loop ---- */
/* Py_DECREF of an exact int that the loop is done with: when this was its last reference it
 * is freed with PyObject_Free at once, not through _Py_Dealloc and int's deallocator, as
 * CPython's own int forms do.  _Py_DECREF_SPECIALIZED is each version's own (pycore_object.h:
 * 3.12+ skip immortal objects, 3.13 tells a reference tracer), and int's deallocator does no
 * more than free the memory (3.12+'s long_dealloc also refuses small ints, immortal there). */
#define PA_DECREF_INT(op) _Py_DECREF_SPECIALIZED((op), (destructor)PyObject_Free)
/* The same for an exact float: a seam whose CPython exports float's own deallocator (3.13:
 * _PyFloat_ExactDealloc, which puts the object on the float freelist) calls it directly, as
 * CPython's float forms do, without _Py_Dealloc and float_dealloc's type test; elsewhere
 * Py_DECREF. */
#ifndef PA_DECREF_FLOAT
#  define PA_DECREF_FLOAT(op) Py_DECREF(op)
#endif
/* Evaluate `frame`, whose code's compiled unit is `unit` (csrc/pa_eval.c). */
PyObject *pa_execute(PyThreadState *tstate, _PyInterpreterFrame *frame, int throwflag,
                     pa_unit *unit);
extern int pa_hook_installed;
void pa_count_fallback(int reason);                     /* csrc/pa_state.c */
void pa_opinfo_init(void);                              /* csrc/pa_opinfo.c: the family maps */
/* csrc/pa_opinfo.c: the stack items an instruction takes and puts back (its row's POP and PUSH) */
void pa_stack_items(int op, int oparg, int jump, int *pop, int *push);
/* The builtins that drive the hook, and what pa_hook_init sets up on the module once they
 * are on it (csrc/pa_hook.c; registered by pa_core_init, csrc/pa_module.c). */
extern PyMethodDef pa_hook_methods[];
int pa_hook_init(PyObject *mod);
void pa_hook_keep_for_jit(void);        /* a @jit unit exists: keep the hook installed */
/* The argument of a builtin that takes a code object: 1 if it is one, else 0 with
 * TypeError (csrc/pa_module.c). */
int pa_check_code_arg(PyObject *arg);
/* pyadapt's PEP 523 frame-evaluation function (csrc/pa_hook.c). */
PyObject *pa_eval_frame(PyThreadState *tstate, _PyInterpreterFrame *frame, int throwflag);
/* The loop found another eval-frame function than pa_eval_frame in the interpreter's slot:
 * 1 if calls must go through it (counted as a fallback when `count`), 0 if the slot held
 * the default (pyadapt's hook, if still wanted, takes it back). */
int pa_foreign_eval_frame(PyInterpreterState *interp, int count);

/* except and except* (csrc/pa_excgroup.c): CHECK_EXC_MATCH's and CHECK_EG_MATCH's type
 * checks (0, or -1 with TypeError set), CHECK_EG_MATCH's split (0 with *match and *rest new
 * references, *match None for no match; -1), PREP_RERAISE_STAR (new reference or NULL). */
int pa_check_except_type_valid(PyObject *match_type);
int pa_check_except_star_type_valid(PyObject *match_type);
int pa_exception_group_match(PyObject *exc_value, PyObject *match_type,
                             PyObject **match, PyObject **rest);
PyObject *pa_prep_reraise_star(PyObject *orig, PyObject *excs);

/* An attribute name made once and interned (NULL with an error set if that fails): a name
 * made afresh at every look-up would miss the type attribute cache (keyed by the name's
 * identity) and take one of its entries each time (held there: growth in
 * sys.getallocatedblocks(), tests/test_refcounts.py).  `*slot` is a static of the caller. */
static inline PyObject *
pa_interned(PyObject **slot, const char *name)
{
    if (*slot == NULL) {
        *slot = PyUnicode_InternFromString(name);
    }
    return *slot;
}

/* MATCH_CLASS and MATCH_KEYS (csrc/pa_match.c): a tuple, Py_None for no match, or NULL. */
PyObject *pa_match_class(PyObject *subject, PyObject *type, Py_ssize_t nargs, PyObject *names);
PyObject *pa_match_keys(PyObject *subject, PyObject *keys);

#endif
