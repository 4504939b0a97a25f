/* pa_caches.h -- inline cache layouts, one struct per instruction family.
 *
 * This file is read twice: by the C compiler, and verbatim by cffi's cdef, so that the
 * Python compiler and the disassembler know each field's name and position from the same
 * text.  Plain typedefs of uint32_t fields only: every field is one 32-bit code unit and
 * 64-bit values (pointers) take two units (lo, hi).  The first field of every layout is
 * the family's adaptive counter, the second its hit count: how often this site's specialized
 * form passed its guards (for pyadapt.dis and the report).
 *
 * The counter's layout is drawn in pa_word.h, with the only code that reads or writes it.
 */

/* The head every layout below begins with (checked in pa_hook.c; read through PA_SITE_*,
 * pa_word.h). */
typedef struct {
    uint32_t counter;        /* the family's adaptive counter (pa_word.h draws it) */
    uint32_t hits;           /* the specialized form's guard passes at this site */
} pa_cache_head;

typedef struct {
    uint32_t counter;
    uint32_t hits;
    uint32_t type_version;   /* tp_version_tag of the owner's type */
    uint32_t index;          /* values index, dict hint, slot offset or keys version */
    uint32_t descr_lo;       /* cached descriptor, property or __getattribute__ (borrowed); */
    uint32_t descr_hi;       /*   LOAD_ATTR_INSTANCE_VALUE: two more type slots (below) */
} pa_cache_load_attr;

/* LOAD_ATTR_INSTANCE_VALUE and STORE_ATTR_INSTANCE_VALUE are polymorphic: up to three types
 * whose instances keep the attribute in their inline values, each at its own index (classes
 * that set their attributes in different orders, such as subclasses that set some before
 * calling the base class's __init__).  The first type is type_version and index; the other
 * two are type slots (pa_word.h: the version and the index packed in one unit, 0 if free). */

typedef struct {
    uint32_t counter;
    uint32_t hits;
    uint32_t type_version;
    uint32_t index;
    uint32_t version_2;      /* STORE_ATTR_INSTANCE_VALUE: two more type slots (above) */
    uint32_t version_3;
} pa_cache_store_attr;

typedef struct {
    uint32_t counter;
    uint32_t hits;
    uint32_t type_version;
    uint32_t keys_version;
    uint32_t descr_lo;
    uint32_t descr_hi;
} pa_cache_load_method;

typedef struct {
    uint32_t counter;
    uint32_t hits;
    uint32_t module_keys_version;
    uint32_t builtin_keys_version;
    uint32_t index;
} pa_cache_load_global;

typedef struct {
    uint32_t counter;
    uint32_t hits;
} pa_cache_binary_op;

typedef struct {
    uint32_t counter;
    uint32_t hits;
    uint32_t mask;           /* when fused with the following conditional jump */
} pa_cache_compare_op;

typedef struct {
    uint32_t counter;
    uint32_t hits;
    uint32_t type_version;   /* BINARY_SUBSCR_GETITEM: the class; _ARRAY_INT: array.array */
    uint32_t func_version;   /* __getitem__ of a Python class */
} pa_cache_binary_subscr;

typedef struct {
    uint32_t counter;
    uint32_t hits;
    uint32_t type_version;   /* STORE_SUBSCR_ARRAY_INT: array.array's version */
} pa_cache_store_subscr;

typedef struct {
    uint32_t counter;
    uint32_t hits;
} pa_cache_unpack_sequence;

typedef struct {
    uint32_t counter;
    uint32_t hits;
} pa_cache_contains_op;

typedef struct {
    uint32_t counter;
    uint32_t hits;
    uint32_t type_version;   /* TO_BOOL_ALWAYS_TRUE: the version of the value's class */
} pa_cache_to_bool;

typedef struct {
    uint32_t counter;
    uint32_t hits;
    uint32_t func_version;   /* CALL_PY_*: the function's version; CALL_PY_CLASS: the class's */
    uint32_t min_args;       /* CALL_PY_WITH_DEFAULTS; CALL_PY_CLASS: __init__'s version */
    uint32_t init_lo;        /* CALL_PY_CLASS: the class's __init__ (borrowed) */
    uint32_t init_hi;
} pa_cache_call;

/* CALL_PY_EXACT_ARGS is polymorphic: min_args, init_lo and init_hi hold up to three more
 * function versions (the methods of several classes called at one site, as `s.area()` over
 * shapes); a slot not in use repeats func_version, which is never 0. */

typedef struct {
    uint32_t counter;
    uint32_t hits;
} pa_cache_for_iter;

typedef struct {
    uint32_t counter;
    uint32_t hits;
} pa_cache_send;

/* LOAD_SUPER_ATTR and LOAD_SUPER_METHOD: what super(class, obj).name found, for one class and
 * one searched type (type(obj), or obj itself when it is a subclass: classmethods, __new__). */
typedef struct {
    uint32_t counter;
    uint32_t hits;
    uint32_t type_version;   /* tp_version_tag of the searched type: its MRO and dicts */
    uint32_t class_lo;       /* super()'s class: the __class__ cell or the first argument */
    uint32_t class_hi;       /*   (borrowed: the searched type's MRO holds it) */
    uint32_t descr_lo;       /* what the MRO after the class holds under the name (borrowed) */
    uint32_t descr_hi;
} pa_cache_load_super;
