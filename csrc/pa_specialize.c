/* pa_specialize.c -- the specializer.
 *
 * Each pa_specialize_<family>() looks at the live operands of an adaptive instruction and
 * either rewrites it in place into a specialized form (the opcode in the instruction word,
 * the guard data in its inline cache) or records why it cannot and backs off
 * exponentially.  The specialized forms (pa_eval.c) check only the guards set up here:
 * type version tags, dict keys versions, function versions, exact types.
 *
 * Version tags: a type's tp_version_tag is assigned by _PyType_Lookup (exported) as a side
 * effect.  Dict keys versions and function versions are assigned in CPython 3.11 by hidden
 * functions; pyadapt assigns its own when the field is 0, from a counter that starts at
 * 2**31 so that it never meets the small numbers CPython's own counters hand out.  CPython
 * resets both fields to 0 whenever the keys or the function change, which is what makes
 * them guards.
 */
#include "pa_internal.h"
#include "pa_caches.h"
#include "structmember.h"
#include "opcode.h"
#include "internal/pycore_moduleobject.h"

#define PA_FAIL_KINDS(X) \
    X(NONE, "none") \
    X(OTHER, "other") \
    X(NO_TYPE_VERSION, "type has no version tag") \
    X(GETATTRO, "type overrides attribute access in C") \
    X(GETATTRIBUTE, "__getattribute__ not a simple Python function") \
    X(NOT_IN_VALUES, "attribute not in the instance's shared keys") \
    X(DICT_MATERIALIZED, "instance __dict__ materialized") \
    X(NO_MANAGED_DICT, "instance dict not managed by the type") \
    X(DESCRIPTOR, "descriptor of an unsupported kind") \
    X(CLASS_ATTR, "plain class attribute on an instance") \
    X(SHADOWED, "class attribute shadowed by the instance") \
    X(NOT_FOUND, "name not found") \
    X(METACLASS, "metaclass is not type") \
    X(KEYS_NOT_UNICODE, "dict has non-str keys") \
    X(NOT_DICT, "globals or builtins not an exact dict") \
    X(OPERANDS, "operand types not specialized") \
    X(DIFFERENT_TYPES, "operands of different types") \
    X(OP, "operator not specialized") \
    X(BIG_INT, "int beyond one digit") \
    X(NEGATIVE_OR_RANGE, "index negative or out of range") \
    X(STR_NOT_LATIN1, "str not latin-1 (characters wider than one byte)") \
    X(CONTAINER, "container type not specialized") \
    X(SEQUENCE, "sequence type or length not specialized") \
    X(CALLABLE, "callable kind not specialized") \
    X(KWNAMES, "call with keyword arguments") \
    X(ARGS_SHAPE, "arguments do not match the parameters simply") \
    X(UNCOMPILABLE, "callee could not be compiled") \
    X(NOT_COMPILED, "callee not compiled yet (too few calls: tried again after the backoff)") \
    X(CUSTOM_NEW, "class with custom __new__ or metaclass") \
    X(ITERATOR, "iterator type not specialized") \
    X(GEN_STATE, "generator running or finished") \
    X(SLOT_KIND, "member descriptor of an unsupported kind") \
    X(NOT_OPTIMIZED, "function of module-level code (its locals are the globals)") \
    X(FOREIGN_SLOT, "member descriptor of a class the object is not an instance of") \
    X(MUTABLE_DESCR_CLASS, "class attribute of a mutable class (could gain __get__/__set__)") \
    X(SUPER_SHADOWED, "super is not the builtin super") \
    X(SUPER_BAD_CLASS, "super()'s class is not a type") \
    X(SUPER_OBJECT, "super()'s object neither an instance nor a subclass of its class") \
    X(TRUTH_BUILTIN, "truth of a builtin type not specialized") \
    X(TRUTH_DEFINED, "class defines its truth (__bool__ or __len__)")

enum {
#define PA_FAIL_ENUM(NAME, TEXT) PA_FAIL_##NAME,
    PA_FAIL_KINDS(PA_FAIL_ENUM)
#undef PA_FAIL_ENUM
    PA_FAIL_COUNT
};
_Static_assert(PA_FAIL_COUNT <= PA_NUM_FAIL_KINDS, "too many failure kinds");

const char *const pa_fail_names[PA_NUM_FAIL_KINDS] = {
#define PA_FAIL_NAME(NAME, TEXT) [PA_FAIL_##NAME] = TEXT,
    PA_FAIL_KINDS(PA_FAIL_NAME)
#undef PA_FAIL_NAME
};

/* Another PEP 523 hook holds the interpreter's eval-frame slot: the forms that run a call in
 * an inline frame would only miss (INLINE_REFUSED in pa_eval.c), so they are not chosen
 * (failure kind "other"; CPython 3.11's specializer refuses them too while a hook is set). */
static int
other_hook_in_slot(void)
{
    _PyFrameEvalFunction f = _PyInterpreterState_GET()->eval_frame;
    return f != NULL && f != pa_eval_frame;
}

/* ---- versions ---- */

static uint32_t next_own_version = 0x80000000u;

uint32_t
pa_keys_version(PyDictKeysObject *keys)
{
    if (keys->dk_version == 0 && next_own_version != 0) {
        keys->dk_version = next_own_version++;
    }
    return keys->dk_version;
}

vectorcallfunc pa_function_vectorcall;

/* Reads CPython's function vectorcall from a function made here: 0, or -1 with an error. */
int
pa_specialize_init(void)
{
    PyObject *code = Py_CompileString("None", "<pyadapt>", Py_eval_input);
    PyObject *globals = code == NULL ? NULL : PyDict_New();
    PyObject *func = globals == NULL ? NULL : PyFunction_New(code, globals);
    if (func != NULL) {
        pa_function_vectorcall = ((PyFunctionObject *)func)->vectorcall;
    }
    Py_XDECREF(func);
    Py_XDECREF(globals);
    Py_XDECREF(code);
    return func == NULL ? -1 : 0;
}

/* A function's version says which code and defaults a call of it will run (the guard of
 * CALL_PY_* and of the getter, __getattribute__ and __getitem__ forms).  As CPython 3.12's
 * co_version, the functions of one code object made without defaults or keyword defaults
 * share one version, kept in the code's unit: a nested function, a lambda or a generator
 * expression made anew at each call keeps hitting its call site (MAKE_FUNCTION gives it the
 * version once the unit has one).  Other functions get one each.  CPython sets a function's
 * version to 0 when its __code__, __defaults__, __kwdefaults__ or __annotations__ change, so a
 * changed function asks again here (and SET_FUNCTION_ATTRIBUTE, which sets the parts
 * directly, does the same).  A function that is not plain (pa_internal.h) has none: 0. */
uint32_t
pa_func_version(PyFunctionObject *func)
{
    if (!PA_FUNCTION_PLAIN(func)) {
        return 0;
    }
    if (func->func_version == 0 && next_own_version != 0) {
        pa_unit *u = NULL;
        if (func->func_defaults == NULL && func->func_kwdefaults == NULL) {
            u = pa_unit_for_code((PyCodeObject *)func->func_code);
        }
        if (u == NULL) {
            func->func_version = next_own_version++;
        }
        else {
            if (u->func_version == 0) {
                u->func_version = next_own_version++;
            }
            func->func_version = u->func_version;
        }
    }
    return func->func_version;
}

static uint32_t
type_version(PyTypeObject *tp, PyObject *name)
{
    /* _PyType_Lookup assigns a version tag when it caches a lookup. */
    if (!PA_TYPE_VERSION_VALID(tp)) {
        (void)_PyType_Lookup(tp, name);
    }
    return PA_TYPE_VERSION_VALID(tp) ? tp->tp_version_tag : 0;
}

/* Slot `i` of a dict's hash table: an entry index, or DKIX_EMPTY / DKIX_DUMMY (negative).
 * The slots are 1, 2, 4 or 8 bytes wide, by the table's size, as CPython lays them out. */
static Py_ssize_t
keys_slot(PyDictKeysObject *keys, size_t i)
{
    int log2_size = DK_LOG_SIZE(keys);
    if (log2_size < 8) {
        return ((const int8_t *)keys->dk_indices)[i];
    }
    if (log2_size < 16) {
        return ((const int16_t *)keys->dk_indices)[i];
    }
    if (log2_size < 32) {
        return ((const int32_t *)keys->dk_indices)[i];
    }
    return (Py_ssize_t)((const int64_t *)keys->dk_indices)[i];
}

/* The index of `name` (an exact str) in a unicode-keys dict's entries, or -1.  Found through
 * the hash table, as a dict lookup does (same probe sequence: the hash's low bits, then
 * i = 5i + perturb + 1 with perturb shifted right 5 bits each step): it runs at every
 * LOAD_GLOBAL and attribute specialization attempt, and scanning the entries of a module's
 * or builtins' dict (hundreds) took 1,780 machine instructions an attempt against 69 this
 * way (callgrind, pytest on toolz's tests).  A name whose hash is not computed yet is looked
 * for by scanning; no Python code runs either way. */
Py_ssize_t
pa_keys_index(PyDictKeysObject *keys, PyObject *name)
{
    if (!DK_IS_UNICODE(keys)) {
        return -1;
    }
    PyDictUnicodeEntry *entries = DK_UNICODE_ENTRIES(keys);
    Py_hash_t hash = ((PyASCIIObject *)name)->hash;
    if (hash != -1) {
        size_t mask = ((size_t)1 << DK_LOG_SIZE(keys)) - 1;
        size_t perturb = (size_t)hash;
        for (size_t i = (size_t)hash & mask;; i = (i * 5 + perturb + 1) & mask) {
            Py_ssize_t ix = keys_slot(keys, i);
            if (ix == DKIX_EMPTY) {
                return -1;
            }
            if (ix >= 0) {
                PyObject *key = entries[ix].me_key;
                if (key == name) {
                    return ix;
                }
                if (key != NULL && ((PyASCIIObject *)key)->hash == hash
                        && _PyUnicode_Equal(key, name)) {
                    return ix;
                }
            }
            perturb >>= 5;
        }
    }
    for (Py_ssize_t i = 0; i < keys->dk_nentries; i++) {
        if (entries[i].me_key == name) {
            return i;
        }
    }
    for (Py_ssize_t i = 0; i < keys->dk_nentries; i++) {
        PyObject *key = entries[i].me_key;
        if (key != NULL && PyUnicode_CheckExact(key) && _PyUnicode_Equal(key, name)) {
            return i;
        }
    }
    return -1;
}

/* ---- outcome bookkeeping ---- */

static void
success(uint32_t *instr, int op)
{
    int family = pa_family_of[op];
    PA_ASSERT(family == pa_family_of[PA_OPCODE(*instr)]);    /* a form of the site's family */
    PA_SET_OPCODE(instr, op);
    /* the miss budget; the backoff exponent stays, as the site's deopt history */
    PA_SITE_COUNTER(instr) = PA_COUNTER(0, PA_COUNTER_BACKOFF(PA_SITE_COUNTER(instr)),
                                        pa_config.miss_budget);
    PA_SITE_HITS(instr) = 0;    /* hits at this site since it specialized */
    pa_op_stats[family].specialized++;
}

static void
failure(uint32_t *instr, int kind)
{
    int family = pa_family_of[PA_OPCODE(*instr)];
    uint32_t backoff = PA_COUNTER_BACKOFF(PA_SITE_COUNTER(instr));
    if (backoff < pa_config.max_backoff) {
        backoff++;
    }
    PA_SITE_COUNTER(instr) = PA_COUNTER(kind, backoff, (1u << backoff) - 1);
    pa_op_stats[family].failures++;
    pa_op_stats[family].failure_kinds[kind]++;
}

/* ---- the shared attribute table (pa_internal.h) ---- */

pa_attr_entry pa_attr_table[2][1 << PA_ATTR_TABLE_BITS][2] __attribute__((aligned(64)));

/* (version, name)'s entry now says `aux`, `descr`: its own entry if it has one, else the set's
 * first, whose entry moves to second place (the one filled longest ago goes). */
static pa_attr_entry *
attr_entry_put(int kind, uint32_t version, uint32_t aux, PyObject *name, PyObject *descr)
{
    pa_attr_entry *e = pa_attr_find(kind, version, name);
    if (e == NULL) {
        pa_attr_entry *set = pa_attr_set(kind, version, name);
        Py_XDECREF(set[1].name);        /* a str: no code runs */
        set[1] = set[0];
        e = &set[0];
        e->name = Py_NewRef(name);
        e->type_version = version;
    }
    e->aux = aux;
    e->descr = descr;
    return e;
}

/* Megamorphic forms exist in the main interpreter only: another interpreter's types could
 * carry versions that the main one's also carry. */
static int
in_main_interpreter(void)
{
    return PyInterpreterState_Get() == PyInterpreterState_Main();
}

/* ---- attributes ---- */

static int
is_method_descriptor(PyObject *descr)
{
    return descr != NULL && (Py_TYPE(descr)->tp_flags & Py_TPFLAGS_METHOD_DESCRIPTOR);
}

/* Whether what a class attribute's class says about __get__ and __set__ holds for good.  The
 * guards of the attribute forms cover the version of the class the attribute was found on, not
 * the class of the attribute itself: `V.__get__ = f` turns every instance of V into a
 * descriptor, wherever it sits, and no class holding one changes its version.  Only an
 * immutable class (every static type, `type` itself, functions) keeps its answer. */
static int
descr_class_fixed(PyObject *descr)
{
    return (Py_TYPE(descr)->tp_flags & Py_TPFLAGS_IMMUTABLETYPE) != 0;
}

/* Whether the code of an inline callee has a unit to run: PA_FAIL_NONE, PA_FAIL_NOT_COMPILED
 * (none yet, or cold: the hook and the loop's calls compile it by their rules, and the site
 * tries again after its backoff), PA_FAIL_UNCOMPILABLE (the compiler refused it).  The
 * specializer never compiles: compiling is the hook's decision (compile_after), and the
 * specializer stays a function of what the site saw. */
static int
callee_unit_kind(PyCodeObject *co)
{
    pa_unit *u = pa_unit_for_code(co);
    if (u == NULL || u->reject_reason == PA_FB_COLD) {
        return PA_FAIL_NOT_COMPILED;
    }
    return u->reject_reason == 0 ? PA_FAIL_NONE : PA_FAIL_UNCOMPILABLE;
}

/* Whether `f` is a Python function that can be called with exactly `nargs` positional
 * arguments and nothing else, in an inline frame: PA_FAIL_NONE, or `kind` (the caller's
 * failure kind for a callable of another shape), or callee_unit_kind's. */
static int
simple_function(PyObject *f, int nargs, int kind)
{
    if (f == NULL || !PyFunction_Check(f)) {
        return kind;
    }
    PyCodeObject *co = (PyCodeObject *)((PyFunctionObject *)f)->func_code;
    if (co->co_flags & (CO_VARARGS | CO_VARKEYWORDS | CO_GENERATOR | CO_COROUTINE
                        | CO_ASYNC_GENERATOR | CO_ITERABLE_COROUTINE)) {
        return kind;
    }
    if (co->co_argcount != nargs || co->co_kwonlyargcount != 0
            || pa_func_version((PyFunctionObject *)f) == 0) {
        return kind;
    }
    return callee_unit_kind(co);
}

/* A module attribute: `version_field` gets the module dict's keys version, `index_field`
 * the entry index.  Returns a failure kind, or PA_FAIL_NONE (the caller then succeeds). */
static int
module_attr(PyObject *module, PyObject *name, uint32_t *version_field, uint32_t *index_field)
{
    PyDictObject *dict = (PyDictObject *)((PyModuleObject *)module)->md_dict;
    if (dict == NULL || !PyDict_CheckExact(dict)) {
        return PA_FAIL_NOT_DICT;
    }
    if (!DK_IS_UNICODE(dict->ma_keys)) {
        return PA_FAIL_KEYS_NOT_UNICODE;
    }
    Py_ssize_t index = pa_keys_index(dict->ma_keys, name);
    if (index < 0) {
        return PA_FAIL_NOT_FOUND;
    }
    uint32_t version = pa_keys_version(dict->ma_keys);
    if (version == 0) {
        return PA_FAIL_OTHER;
    }
    *version_field = version;
    *index_field = (uint32_t)index;
    return PA_FAIL_NONE;
}

/* Where an instance of a managed-dict type keeps `name`: in its inline values (*in_values
 * = 1, *where = index in the type's shared keys) or in its materialized __dict__ (*where =
 * the entry's index, used as a hint), for a load or a `store`.  Returns a failure kind,
 * PA_FAIL_NONE if found. */
static int
instance_storage(PyObject *owner, PyObject *name, int store, int *in_values, uint32_t *where)
{
    PyTypeObject *tp = Py_TYPE(owner);
    if (!(tp->tp_flags & Py_TPFLAGS_MANAGED_DICT)) {
        return PA_FAIL_NO_MANAGED_DICT;
    }
    /* a store into values a dict shares goes through the dict (3.13; PA_STORE_VALUES) */
    if ((store ? PA_STORE_VALUES(owner) : PA_INSTANCE_VALUES(owner)) != NULL) {
        PyDictKeysObject *keys = ((PyHeapTypeObject *)tp)->ht_cached_keys;
        Py_ssize_t index = keys != NULL ? pa_keys_index(keys, name) : -1;
        if (index < 0) {
            return PA_FAIL_NOT_IN_VALUES;
        }
        *in_values = 1;
        *where = (uint32_t)index;
        return PA_FAIL_NONE;
    }
    PyDictObject *dict = PA_MANAGED_DICT(owner);
    if (dict == NULL || !PyDict_CheckExact(dict)) {
        return PA_FAIL_NOT_FOUND;
    }
    Py_ssize_t hint = pa_keys_index(dict->ma_keys, name);
    if (hint < 0) {
        return DK_IS_UNICODE(dict->ma_keys) ? PA_FAIL_NOT_FOUND : PA_FAIL_KEYS_NOT_UNICODE;
    }
    *in_values = 0;
    *where = (uint32_t)hint;
    return PA_FAIL_NONE;
}

/* An attribute of a class object (LOAD_ATTR_CLASS, LOAD_METHOD_CLASS): the metaclass must
 * be `type` itself (no metaclass descriptors or __getattribute__), `type` must not define the
 * name, and the attribute must be a plain value of an immutable class or a function (which a
 * class returns unchanged).  Fills the class's version and the attribute (borrowed: the class
 * holds it while its version holds).  Returns a failure kind, PA_FAIL_NONE on success. */
static int
class_attr(PyObject *owner, PyObject *name, uint32_t *version_field, uint32_t *lo,
           uint32_t *hi)
{
    PyTypeObject *cls = (PyTypeObject *)owner;
    if (Py_TYPE(owner) != &PyType_Type) {
        return PA_FAIL_METACLASS;
    }
    /* type's own attribute of that name (type is immutable): a data descriptor there wins
     * over the class's; a non-data one (type.__repr__) only where the class has none */
    PyObject *meta = _PyType_Lookup(&PyType_Type, name);
    if (meta != NULL && Py_TYPE(meta)->tp_descr_set != NULL) {
        return PA_FAIL_DESCRIPTOR;
    }
    uint32_t version = type_version(cls, name);
    PyObject *descr = _PyType_Lookup(cls, name);
    if (version == 0) {
        return PA_FAIL_NO_TYPE_VERSION;
    }
    if (descr == NULL) {
        return PA_FAIL_NOT_FOUND;   /* (type's non-data attribute would answer: not taken) */
    }
    /* what type.__getattribute__ gives: the attribute itself for a function and for a C
     * method or slot wrapper (their __get__(None, cls) returns them: `int.__repr__`,
     * `list.append` read through the class, pprint's `r is dict.__repr__`); any other
     * descriptor's __get__ is not taken */
    if (Py_TYPE(descr)->tp_descr_get != NULL && !PyFunction_Check(descr)
            && !Py_IS_TYPE(descr, &PyMethodDescr_Type)
            && !Py_IS_TYPE(descr, &PyWrapperDescr_Type)) {
        return PA_FAIL_DESCRIPTOR;
    }
    if (!descr_class_fixed(descr)) {
        return PA_FAIL_MUTABLE_DESCR_CLASS;    /* cached as a plain value, it could gain __get__ */
    }
    *version_field = version;
    pa_write_ptr(lo, hi, descr);
    return PA_FAIL_NONE;
}

/* A __slots__ member descriptor found on the type of `owner`: the offset of its object
 * pointer, which LOAD_ATTR_SLOT / STORE_ATTR_SLOT read and write with no further check.  That
 * is only sound for a descriptor of the object's own class or a base of it: a descriptor taken
 * from an unrelated class (`borrowed = Other.slot`) raises TypeError natively, and its offset
 * means nothing in `owner`.  The type's version guards both the descriptor and the type's
 * bases, so checking here once is enough.  Returns a failure kind, PA_FAIL_NONE on success. */
static int
slot_offset(PyObject *owner, PyObject *descr, int for_store, uint32_t *offset)
{
    PyMemberDescrObject *member = (PyMemberDescrObject *)descr;
    PyMemberDef *m = member->d_member;
    if (!PyObject_TypeCheck(owner, member->d_common.d_type)) {
        return PA_FAIL_FOREIGN_SLOT;
    }
    if (m->type != T_OBJECT_EX || m->offset <= 0 || (for_store && (m->flags & READONLY))) {
        return PA_FAIL_SLOT_KIND;
    }
    *offset = (uint32_t)m->offset;
    return PA_FAIL_NONE;
}

/* `keys` (of str only: in other keys a str subclass could equal the name) do not hold
 * `name`: PA_FAIL_NONE with their version in *keys_version (CPython resets it when a key is
 * inserted), or a failure kind. */
static int
keys_without(PyDictKeysObject *keys, PyObject *name, uint32_t *keys_version)
{
    if (!DK_IS_UNICODE(keys)) {
        return PA_FAIL_KEYS_NOT_UNICODE;
    }
    if (pa_keys_index(keys, name) >= 0) {
        return PA_FAIL_SHADOWED;
    }
    uint32_t kv = pa_keys_version(keys);
    if (kv == 0) {
        return PA_FAIL_OTHER;
    }
    *keys_version = kv;
    return PA_FAIL_NONE;
}

/* An instance of a managed-dict type with its inline values (no materialized __dict__),
 * whose type's shared keys do not hold `name`: the instance has no attribute of that name,
 * and keeps not having one while the shared keys' version holds (an instance of the type
 * gaining it adds the key and resets the version) and its __dict__ stays unmaterialized
 * (the forms check that).  Fills the keys version.  Returns a failure kind, PA_FAIL_NONE on
 * success. */
static int
shared_keys_without(PyObject *owner, PyObject *name, uint32_t *keys_version)
{
    if (PA_MANAGED_DICT(owner) != NULL) {
        return PA_FAIL_DICT_MATERIALIZED;
    }
    PyDictKeysObject *keys = ((PyHeapTypeObject *)Py_TYPE(owner))->ht_cached_keys;
    if (keys == NULL) {
        return PA_FAIL_OTHER;
    }
    return keys_without(keys, name, keys_version);
}

/* A method of an instance that has a dict (materialized from its inline values, or at the
 * type's dict offset): the name must not be among the dict's keys, which their version then
 * guards -- inserting a key resets it, a new keys object has another (CPython 3.11's
 * LOAD_METHOD_WITH_DICT).  As keys_without answers. */
static int
dict_keys_without(PyObject *dict, PyObject *name, uint32_t *keys_version)
{
    if (dict == NULL || !PyDict_Check(dict)) {
        return PA_FAIL_DICT_MATERIALIZED;
    }
    return keys_without(((PyDictObject *)dict)->ma_keys, name, keys_version);
}

static void
specialize_load_attr(PyObject *owner, PyObject *name, uint32_t *instr)
{
    pa_cache_load_attr *cache = (pa_cache_load_attr *)(instr + 1);
    PyTypeObject *tp = Py_TYPE(owner);
    int kind;
    if (PyModule_CheckExact(owner)) {
        kind = module_attr(owner, name, &cache->type_version, &cache->index);
        if (kind == PA_FAIL_NONE) {
            success(instr, PA_LOAD_ATTR_MODULE);
        }
        goto done;
    }
    if (PyType_Check(owner)) {
        kind = class_attr(owner, name, &cache->type_version, &cache->descr_lo,
                          &cache->descr_hi);
        if (kind == PA_FAIL_NONE) {
            success(instr, PA_LOAD_ATTR_CLASS);
        }
        goto done;
    }
    uint32_t version = type_version(tp, name);
    if (version == 0) {
        kind = PA_FAIL_NO_TYPE_VERSION;
        goto done;
    }
    if (tp->tp_getattro != PyObject_GenericGetAttr) {
        /* A Python __getattribute__ (and no __getattr__): call it directly. */
        PyObject *getattribute = _PyType_Lookup(tp, &_Py_ID(__getattribute__));
        int python = getattribute != NULL && PyFunction_Check(getattribute);
        if (!(tp->tp_flags & Py_TPFLAGS_HEAPTYPE)
                || _PyType_Lookup(tp, &_Py_ID(__getattr__)) != NULL) {
            kind = python ? PA_FAIL_GETATTRIBUTE : PA_FAIL_GETATTRO;
            goto done;
        }
        kind = simple_function(getattribute, 2,
                               python ? PA_FAIL_GETATTRIBUTE : PA_FAIL_GETATTRO);
        if (kind != PA_FAIL_NONE) {
            goto done;
        }
        if (other_hook_in_slot()) {
            kind = PA_FAIL_OTHER;
            goto done;
        }
        cache->type_version = version;
        cache->index = pa_func_version((PyFunctionObject *)getattribute);
        pa_write_ptr(&cache->descr_lo, &cache->descr_hi, getattribute);
        success(instr, PA_LOAD_ATTR_GETATTRIBUTE_OVERRIDDEN);
        return;
    }
    PyObject *descr = _PyType_Lookup(tp, name);
    if (descr != NULL) {
        PyTypeObject *dt = Py_TYPE(descr);
        if (dt == &PyMemberDescr_Type) {
            kind = slot_offset(owner, descr, 0, &cache->index);
            if (kind != PA_FAIL_NONE) {
                goto done;
            }
            cache->type_version = version;
            success(instr, PA_LOAD_ATTR_SLOT);
            return;
        }
        if (dt == &PyProperty_Type) {
            PyObject *fget = ((pa_property *)descr)->prop_get;
            kind = simple_function(fget, 1, PA_FAIL_DESCRIPTOR);
            if (kind != PA_FAIL_NONE) {
                goto done;
            }
            if (other_hook_in_slot()) {
                kind = PA_FAIL_OTHER;
                goto done;
            }
            cache->type_version = version;
            cache->index = pa_func_version((PyFunctionObject *)fget);
            /* the property, not fget: the handler re-reads the getter (property.__init__) */
            pa_write_ptr(&cache->descr_lo, &cache->descr_hi, descr);
            success(instr, PA_LOAD_ATTR_PROPERTY);
            return;
        }
        if (dt->tp_descr_get != NULL) {
            kind = PA_FAIL_DESCRIPTOR;
            goto done;
        }
        /* a plain class attribute (Random.m1 read as self.m1), if the instance has none */
        if (!descr_class_fixed(descr)) {
            kind = PA_FAIL_MUTABLE_DESCR_CLASS;       /* it could gain __get__ */
            goto done;
        }
        if (!(tp->tp_flags & Py_TPFLAGS_MANAGED_DICT)) {
            /* No instance dict at all (__slots__, or a C type without one): nothing in the
             * instance can shadow the class's answer, and the type's version guards that
             * answer.  Another layout of dict (tp_dictoffset) is not taken. */
            if (tp->tp_dictoffset != 0) {
                kind = PA_FAIL_CLASS_ATTR;
                goto done;
            }
            cache->type_version = version;
            pa_write_ptr(&cache->descr_lo, &cache->descr_hi, descr);
            success(instr, PA_LOAD_ATTR_NONDESCRIPTOR_NO_DICT);
            return;
        }
        kind = shared_keys_without(owner, name, &cache->index);
        if (kind != PA_FAIL_NONE) {
            goto done;
        }
        cache->type_version = version;
        pa_write_ptr(&cache->descr_lo, &cache->descr_hi, descr);
        success(instr, PA_LOAD_ATTR_NONDESCRIPTOR_WITH_VALUES);
        return;
    }
    int in_values;
    uint32_t where;
    kind = instance_storage(owner, name, 0, &in_values, &where);
    if (kind != PA_FAIL_NONE) {
        goto done;
    }
    cache->type_version = version;
    cache->index = where;
    cache->descr_lo = cache->descr_hi = PA_TYPE_SLOT_FREE;  /* no further types yet */
    success(instr, in_values ? PA_LOAD_ATTR_INSTANCE_VALUE : PA_LOAD_ATTR_WITH_HINT);
    return;
done:
    if (kind != PA_FAIL_NONE) {
        failure(instr, kind);
    }
}

static void
specialize_load_method(PyObject *owner, PyObject *name, uint32_t *instr)
{
    pa_cache_load_method *cache = (pa_cache_load_method *)(instr + 1);
    PyTypeObject *tp = Py_TYPE(owner);
    uint32_t earlier_version = cache->type_version;   /* of a form the site had before */
    int kind = PA_FAIL_NONE;
    if (PyModule_CheckExact(owner)) {
        kind = module_attr(owner, name, &cache->type_version, &cache->keys_version);
        if (kind == PA_FAIL_NONE) {
            success(instr, PA_LOAD_METHOD_MODULE);
        }
        goto done;
    }
    if (PyType_Check(owner)) {
        kind = class_attr(owner, name, &cache->type_version, &cache->descr_lo,
                          &cache->descr_hi);
        if (kind == PA_FAIL_NONE) {
            success(instr, PA_LOAD_METHOD_CLASS);
        }
        goto done;
    }
    uint32_t version = type_version(tp, name);
    if (version == 0) {
        kind = PA_FAIL_NO_TYPE_VERSION;
        goto done;
    }
    if (tp->tp_getattro != PyObject_GenericGetAttr) {
        kind = PA_FAIL_GETATTRO;
        goto done;
    }
    PyObject *descr = _PyType_Lookup(tp, name);
    if (!is_method_descriptor(descr)) {
        kind = descr == NULL ? PA_FAIL_NOT_FOUND : PA_FAIL_DESCRIPTOR;
        goto done;
    }
    if (!descr_class_fixed(descr)) {
        kind = PA_FAIL_MUTABLE_DESCR_CLASS;    /* a C heap type flagged as method descriptor */
        goto done;
    }
    cache->type_version = version;
    pa_write_ptr(&cache->descr_lo, &cache->descr_hi, descr);
    if (tp->tp_flags & Py_TPFLAGS_MANAGED_DICT) {
        kind = shared_keys_without(owner, name, &cache->keys_version);
        if (kind == PA_FAIL_DICT_MATERIALIZED) {
            kind = dict_keys_without((PyObject *)PA_MANAGED_DICT(owner), name,
                                     &cache->keys_version);
            if (kind == PA_FAIL_NONE) {
                success(instr, PA_LOAD_METHOD_WITH_DICT);
            }
            goto done;
        }
        if (kind != PA_FAIL_NONE) {
            goto done;
        }
        if (earlier_version != 0 && earlier_version != version && in_main_interpreter()) {
            /* the site had another type before (it deoptimized, or failed for it): one
             * site cache cannot hold both, so the shared table holds them all */
            attr_entry_put(PA_ATTR_METHOD, version, cache->keys_version, name, descr);
            cache->type_version = cache->keys_version = cache->descr_lo = cache->descr_hi = 0;
            success(instr, PA_LOAD_METHOD_WITH_VALUES_MEGA);
            return;
        }
        success(instr, PA_LOAD_METHOD_WITH_VALUES);
        goto done;
    }
    if (tp->tp_dictoffset == 0) {
        success(instr, PA_LOAD_METHOD_NO_DICT);
        return;
    }
    if (tp->tp_dictoffset > 0) {
        PyObject **dictptr = (PyObject **)((char *)owner + tp->tp_dictoffset);
        if (*dictptr != NULL) {
            kind = dict_keys_without(*dictptr, name, &cache->keys_version);
            if (kind == PA_FAIL_NONE) {
                success(instr, PA_LOAD_METHOD_WITH_DICT);
            }
            goto done;
        }
        cache->keys_version = (uint32_t)tp->tp_dictoffset;
        success(instr, PA_LOAD_METHOD_LAZY_DICT);
        return;
    }
    kind = PA_FAIL_NO_MANAGED_DICT;
done:
    if (kind != PA_FAIL_NONE) {
        failure(instr, kind);
    }
}

static void
specialize_store_attr(PyObject *owner, PyObject *name, uint32_t *instr)
{
    pa_cache_store_attr *cache = (pa_cache_store_attr *)(instr + 1);
    PyTypeObject *tp = Py_TYPE(owner);
    int kind;
    if (PyModule_CheckExact(owner) || PyType_Check(owner)) {
        kind = PA_FAIL_CONTAINER;
        goto fail;
    }
    uint32_t version = type_version(tp, name);
    if (version == 0) {
        kind = PA_FAIL_NO_TYPE_VERSION;
        goto fail;
    }
    if (tp->tp_setattro != PyObject_GenericSetAttr) {
        kind = PA_FAIL_GETATTRO;
        goto fail;
    }
    PyObject *descr = _PyType_Lookup(tp, name);
    if (descr != NULL) {
        if (Py_TYPE(descr) == &PyMemberDescr_Type) {
            kind = slot_offset(owner, descr, 1, &cache->index);
            if (kind != PA_FAIL_NONE) {
                goto fail;
            }
            cache->type_version = version;
            success(instr, PA_STORE_ATTR_SLOT);
            return;
        }
        if (Py_TYPE(descr)->tp_descr_set != NULL) {
            kind = PA_FAIL_DESCRIPTOR;
            goto fail;
        }
        if (!descr_class_fixed(descr)) {
            /* the store would go to the instance, and keep going there after `V.__set__ = f` */
            kind = PA_FAIL_MUTABLE_DESCR_CLASS;
            goto fail;
        }
        /* a plain class attribute of an immutable class: the store goes to the instance */
    }
    int in_values;
    uint32_t where;
    kind = instance_storage(owner, name, 1, &in_values, &where);
    if (kind != PA_FAIL_NONE) {
        goto fail;
    }
    cache->type_version = version;
    cache->index = where;
    cache->version_2 = cache->version_3 = PA_TYPE_SLOT_FREE;  /* no further types yet */
    success(instr, in_values ? PA_STORE_ATTR_INSTANCE_VALUE : PA_STORE_ATTR_WITH_HINT);
    return;
fail:
    failure(instr, kind);
}

/* Room for an attribute instruction and the largest cache of its families */
#define PA_ATTR_SCRATCH_UNITS \
    (1 + PA_CACHE_UNITS(pa_cache_load_attr) + PA_CACHE_UNITS(pa_cache_store_attr) \
     + PA_CACHE_UNITS(pa_cache_load_method))

/* The decision a first specialization of the site at `instr` would make for `owner`, with the
 * same checks, made on `scratch` (PA_ATTR_SCRATCH_UNITS units): a copy of the instruction in
 * its family's adaptive form `adaptive_op` (LOAD_ATTR, STORE_ATTR or LOAD_METHOD), the
 * counter's backoff kept.  Returns the form chosen (the adaptive one if the attempt failed);
 * its cache follows it in `scratch`. */
static int
specialize_scratch_copy(uint32_t *scratch, const uint32_t *instr, int adaptive_op,
                        PyObject *owner, PyObject *name)
{
    memset(scratch, 0, PA_ATTR_SCRATCH_UNITS * sizeof(uint32_t));
    scratch[0] = instr[0];
    PA_SET_OPCODE(&scratch[0], adaptive_op);
    PA_SITE_COUNTER(scratch) = PA_COUNTER_ONLY_BACKOFF(PA_SITE_COUNTER(instr));
    if (adaptive_op == PA_STORE_ATTR_ADAPTIVE) {
        specialize_store_attr(owner, name, scratch);
    }
    else if (adaptive_op == PA_LOAD_ATTR_ADAPTIVE) {
        specialize_load_attr(owner, name, scratch);
    }
    else {
        PA_ASSERT(adaptive_op == PA_LOAD_METHOD_ADAPTIVE);
        specialize_load_method(owner, name, scratch);
    }
    return (int)PA_OPCODE(scratch[0]);
}

/* A polymorphic instance-value site met a type it does not hold: if a first specialization
 * for `owner` would give the same form, the type's version and the attribute's index in its
 * instances' values take a free slot (`extra[0]` or `extra[1]`, pa_word.h's type slot).
 * Returns the slot, or PA_TYPE_SLOT_FREE if not held: another form, a version or index that
 * does not fit a slot (the caller counts a miss). */
static uint32_t
add_instance_value_type(PyObject *owner, PyObject *name, const uint32_t *instr, int store,
                        uint32_t *extra[2])
{
    uint32_t scratch[PA_ATTR_SCRATCH_UNITS];
    int form = specialize_scratch_copy(scratch, instr,
                                       store ? PA_STORE_ATTR_ADAPTIVE : PA_LOAD_ATTR_ADAPTIVE,
                                       owner, name);
    uint32_t version, index;
    if (store) {
        version = ((pa_cache_store_attr *)(scratch + 1))->type_version;
        index = ((pa_cache_store_attr *)(scratch + 1))->index;
    }
    else {
        version = ((pa_cache_load_attr *)(scratch + 1))->type_version;
        index = ((pa_cache_load_attr *)(scratch + 1))->index;
    }
    if (form != (store ? PA_STORE_ATTR_INSTANCE_VALUE : PA_LOAD_ATTR_INSTANCE_VALUE)
            || !PA_TYPE_SLOT_FITS(version, index)) {
        return PA_TYPE_SLOT_FREE;
    }
    uint32_t slot = PA_TYPE_SLOT(version, index);
    *(*extra[0] == PA_TYPE_SLOT_FREE ? extra[0] : extra[1]) = slot;
    return slot;
}

static const char *const POLYMORPHIC_ADDED = "another type: held too";
static const char *const POLYMORPHIC_REFUSED = "another type, not held (a miss)";
static const char *const MEGAMORPHIC_ADDED = "another type: into the shared attribute table";
static const char *const MEGAMORPHIC_REFUSED = "another type, not for the shared table (a miss)";

pa_attr_entry *
pa_attr_table_fill(PyObject *owner, PyObject *name, uint32_t *instr, int kind)
{
    pa_site_slot *site = pa_site_attempt(instr);
    pa_attr_entry *e = NULL;
    if (in_main_interpreter()) {
        /* the decision a first specialization makes, on a scratch copy of the site */
        uint32_t scratch[PA_ATTR_SCRATCH_UNITS];
        if (kind == PA_ATTR_VALUE) {
            int form = specialize_scratch_copy(scratch, instr, PA_LOAD_ATTR_ADAPTIVE, owner, name);
            pa_cache_load_attr *c = (pa_cache_load_attr *)(scratch + 1);
            if (form == PA_LOAD_ATTR_INSTANCE_VALUE) {
                e = attr_entry_put(kind, c->type_version, c->index, name, NULL);
            }
        }
        else {
            int form = specialize_scratch_copy(scratch, instr, PA_LOAD_METHOD_ADAPTIVE, owner,
                                               name);
            pa_cache_load_method *c = (pa_cache_load_method *)(scratch + 1);
            if (form == PA_LOAD_METHOD_WITH_VALUES) {
                PyObject *descr = pa_read_ptr(c->descr_lo, c->descr_hi);
                e = attr_entry_put(kind, c->type_version, c->keys_version, name, descr);
            }
        }
    }
    if (site != NULL) {
        pa_site_saw(site, instr, pa_type_name(Py_TYPE(owner)), NULL,
                    e != NULL ? MEGAMORPHIC_ADDED : MEGAMORPHIC_REFUSED);
    }
    return e;
}

/* The site's hits so far retire with its form (as at a deopt), before `op` replaces it. */
static void
retire_and_become(uint32_t *instr, int op)
{
    pa_op_stats[PA_OPCODE(*instr)].hits += PA_SITE_HITS(instr);
    success(instr, op);
}

/* A polymorphic LOAD_ATTR_INSTANCE_VALUE with its three type slots taken met a fourth type
 * (richards' four Task subclasses): if that type's instances hold the attribute too, the site
 * becomes LOAD_ATTR_INSTANCE_VALUE_MEGA, and the three types it held go into the shared table
 * with the new one.  Returns the new type's slot (this execution a hit), or
 * PA_TYPE_SLOT_FREE (a miss). */
static uint32_t
become_megamorphic_load(PyObject *owner, PyObject *name, uint32_t *instr)
{
    pa_cache_load_attr *cache = (pa_cache_load_attr *)(instr + 1);
    pa_attr_entry *e = pa_attr_table_fill(owner, name, instr, PA_ATTR_VALUE);
    if (e == NULL) {
        return PA_TYPE_SLOT_FREE;
    }
    uint32_t version = e->type_version, index = e->aux;
    attr_entry_put(PA_ATTR_VALUE, cache->type_version, cache->index, name, NULL);
    uint32_t held[2] = {cache->descr_lo, cache->descr_hi};
    for (int i = 0; i < 2; i++) {
        attr_entry_put(PA_ATTR_VALUE, PA_TYPE_SLOT_VERSION(held[i]), PA_TYPE_SLOT_INDEX(held[i]),
                       name, NULL);
    }
    cache->type_version = cache->index = cache->descr_lo = cache->descr_hi = 0;
    retire_and_become(instr, PA_LOAD_ATTR_INSTANCE_VALUE_MEGA);
    return PA_TYPE_SLOT_FITS(version, index) ? PA_TYPE_SLOT(version, index) : PA_TYPE_SLOT_FREE;
}

/* The type of `owner` at a polymorphic site whose extra slots are `extra`: held if a slot is
 * free and the scratch specialization agrees, with a site record either way. */
static uint32_t
add_attr_type(PyObject *owner, PyObject *name, uint32_t *instr, int store, uint32_t *extra[2])
{
    if (*extra[1] != PA_TYPE_SLOT_FREE) {
        /* all three slots taken: a load goes megamorphic, a store misses */
        if (!store && in_main_interpreter()) {
            return become_megamorphic_load(owner, name, instr);
        }
        return PA_TYPE_SLOT_FREE;
    }
    pa_site_slot *site = pa_site_attempt(instr);
    uint32_t slot = add_instance_value_type(owner, name, instr, store, extra);
    if (site != NULL) {
        pa_site_saw(site, instr, pa_type_name(Py_TYPE(owner)), NULL,
                    slot != PA_TYPE_SLOT_FREE ? POLYMORPHIC_ADDED : POLYMORPHIC_REFUSED);
    }
    return slot;
}

uint32_t
pa_add_load_attr_type(PyObject *owner, PyObject *name, uint32_t *instr)
{
    pa_cache_load_attr *cache = (pa_cache_load_attr *)(instr + 1);
    uint32_t *extra[2] = {&cache->descr_lo, &cache->descr_hi};
    return add_attr_type(owner, name, instr, 0, extra);
}

uint32_t
pa_add_store_attr_type(PyObject *owner, PyObject *name, uint32_t *instr)
{
    pa_cache_store_attr *cache = (pa_cache_store_attr *)(instr + 1);
    uint32_t *extra[2] = {&cache->version_2, &cache->version_3};
    return add_attr_type(owner, name, instr, 1, extra);
}

static void
specialize_load_global(PyObject *globals, PyObject *builtins, PyObject *name,
                       uint32_t *instr)
{
    pa_cache_load_global *cache = (pa_cache_load_global *)(instr + 1);
    int kind;
    if (!PyDict_CheckExact(globals) || !PyDict_CheckExact(builtins)) {
        kind = PA_FAIL_NOT_DICT;
        goto fail;
    }
    PyDictKeysObject *gkeys = ((PyDictObject *)globals)->ma_keys;
    PyDictKeysObject *bkeys = ((PyDictObject *)builtins)->ma_keys;
    if (!DK_IS_UNICODE(gkeys) || !DK_IS_UNICODE(bkeys)) {
        kind = PA_FAIL_KEYS_NOT_UNICODE;
        goto fail;
    }
    Py_ssize_t index = pa_keys_index(gkeys, name);
    if (index >= 0) {
        uint32_t gv = pa_keys_version(gkeys);
        if (gv == 0) {
            kind = PA_FAIL_OTHER;
            goto fail;
        }
        cache->module_keys_version = gv;
        cache->index = (uint32_t)index;
        success(instr, PA_LOAD_GLOBAL_MODULE);
        return;
    }
    index = pa_keys_index(bkeys, name);
    if (index < 0) {
        kind = PA_FAIL_NOT_FOUND;
        goto fail;
    }
    uint32_t gv = pa_keys_version(gkeys), bv = pa_keys_version(bkeys);
    if (gv == 0 || bv == 0) {
        kind = PA_FAIL_OTHER;
        goto fail;
    }
    cache->module_keys_version = gv;
    cache->builtin_keys_version = bv;
    cache->index = (uint32_t)index;
    success(instr, PA_LOAD_GLOBAL_BUILTIN);
    return;
fail:
    failure(instr, kind);
}

/* ---- arithmetic and comparisons ---- */

static int
is_small_int(PyObject *o)
{
    return PyLong_CheckExact(o) && PA_IS_SMALL_INT(o);
}

/* An exact int of at most two digits (|x| < 2**60): what BINARY_OP_FLOORDIV_MOD_INT
 * computes in C */
static int
is_two_digit_int(PyObject *o)
{
    long value;
    return PyLong_CheckExact(o) && pa_long_two_digits(o, &value);
}

/* An exact int or float: an operand of the NUMERIC forms, which take int and float mixed
 * (their guard also wants the int compact, as the int forms do). */
static int
is_number(PyObject *o)
{
    return PyLong_CheckExact(o) || PyFloat_CheckExact(o);
}

static void
specialize_binary_op(PyObject *lhs, PyObject *rhs, uint32_t *instr, int oparg,
                     PyObject **locals)
{
    int kind;
    int op = oparg >= NB_INPLACE_ADD ? oparg - NB_INPLACE_ADD : oparg;
    int arithmetic = op == NB_ADD || op == NB_SUBTRACT || op == NB_MULTIPLY
                     || op == NB_TRUE_DIVIDE;
    if (arithmetic && is_number(lhs) && is_number(rhs)
            && (Py_TYPE(lhs) != Py_TYPE(rhs) || (PyLong_CheckExact(lhs) && op == NB_TRUE_DIVIDE))) {
        /* int and float mixed, or int / int (a float) */
        success(instr, PA_BINARY_OP_NUMERIC);
        return;
    }
    if (Py_TYPE(lhs) != Py_TYPE(rhs)) {
        kind = PA_FAIL_DIFFERENT_TYPES;
        goto fail;
    }
    if (PyUnicode_CheckExact(lhs)) {
        if (op != NB_ADD) {
            kind = PA_FAIL_OP;
            goto fail;
        }
        /* `s += t` (or s = s + t) stored back into the same local: extend in place */
        uint32_t next = instr[1 + PA_CACHE_UNITS(pa_cache_binary_op)];
        int next_op = PA_OPCODE(next);
        if (next_op == PA_STORE_FAST || next_op == PA_STORE_FAST__LOAD_FAST
                || next_op == PA_STORE_FAST__STORE_FAST) {
            if (locals[PA_OPARG(next)] == lhs) {
                success(instr, PA_BINARY_OP_INPLACE_ADD_UNICODE);
                return;
            }
        }
        success(instr, PA_BINARY_OP_ADD_UNICODE);
        return;
    }
    if (PyFloat_CheckExact(lhs)) {
        switch (op) {
        case NB_ADD: success(instr, PA_BINARY_OP_ADD_FLOAT); return;
        case NB_SUBTRACT: success(instr, PA_BINARY_OP_SUBTRACT_FLOAT); return;
        case NB_MULTIPLY: success(instr, PA_BINARY_OP_MULTIPLY_FLOAT); return;
        case NB_TRUE_DIVIDE: success(instr, PA_BINARY_OP_TRUE_DIVIDE_FLOAT); return;
        }
        kind = PA_FAIL_OP;
        goto fail;
    }
    if (PyLong_CheckExact(lhs)) {
        switch (op) {
        case NB_ADD: success(instr, PA_BINARY_OP_ADD_INT); return;
        case NB_SUBTRACT: success(instr, PA_BINARY_OP_SUBTRACT_INT); return;
        case NB_MULTIPLY: success(instr, PA_BINARY_OP_MULTIPLY_INT); return;
        case NB_AND: case NB_OR: case NB_XOR: case NB_LSHIFT: case NB_RSHIFT:
            success(instr, PA_BINARY_OP_INT_BITWISE);
            return;
        case NB_FLOOR_DIVIDE: case NB_REMAINDER:
            if (!is_two_digit_int(lhs) || !is_two_digit_int(rhs)) {
                kind = PA_FAIL_BIG_INT;
                goto fail;
            }
            success(instr, PA_BINARY_OP_FLOORDIV_MOD_INT);
            return;
        }
        kind = PA_FAIL_OP;
        goto fail;
    }
    kind = PA_FAIL_OPERANDS;
fail:
    failure(instr, kind);
}

static void
specialize_compare_op(PyObject *lhs, PyObject *rhs, uint32_t *instr, int oparg)
{
    pa_cache_compare_op *cache = (pa_cache_compare_op *)(instr + 1);
    uint32_t next = instr[1 + PA_CACHE_UNITS(pa_cache_compare_op)];
    int next_op = PA_OPCODE(next);
    int fuse = next_op == PA_POP_JUMP_IF_FALSE || next_op == PA_POP_JUMP_IF_TRUE;
    int kind;
    cache->mask = (uint32_t)oparg;
    if (Py_TYPE(lhs) != Py_TYPE(rhs) && is_number(lhs) && is_number(rhs)) {
        success(instr, fuse ? PA_COMPARE_OP_NUMERIC_JUMP : PA_COMPARE_OP_NUMERIC);
        return;
    }
    if (Py_TYPE(lhs) != Py_TYPE(rhs)) {
        kind = PA_FAIL_DIFFERENT_TYPES;
        goto fail;
    }
    if (PyFloat_CheckExact(lhs)) {
        success(instr, fuse ? PA_COMPARE_OP_FLOAT_JUMP : PA_COMPARE_OP_FLOAT);
        return;
    }
    if (PyLong_CheckExact(lhs)) {
        if (!is_small_int(lhs) || !is_small_int(rhs)) {
            kind = PA_FAIL_BIG_INT;
            goto fail;
        }
        success(instr, fuse ? PA_COMPARE_OP_INT_JUMP : PA_COMPARE_OP_INT);
        return;
    }
    if (PyUnicode_CheckExact(lhs)) {
        if (oparg != Py_EQ && oparg != Py_NE) {
            kind = PA_FAIL_OP;
            goto fail;
        }
        success(instr, fuse ? PA_COMPARE_OP_STR_JUMP : PA_COMPARE_OP_STR);
        return;
    }
    kind = PA_FAIL_OPERANDS;
fail:
    failure(instr, kind);
}

/* ---- subscripts and unpacking ---- */

/* array.array, whose object layout pa_array mirrors.  The array module makes its type
 * from a spec, once per module object, so there is no one address to compare with: the
 * type is recognised by its name, its size and the immutable-type flag, which a class
 * statement never sets (a Python subclass, even one named "array.array", fails it).  The
 * forms then guard the type's version, which no other type ever has. */
static int
is_array_type(PyTypeObject *tp)
{
    return (tp->tp_flags & Py_TPFLAGS_IMMUTABLETYPE) && tp->tp_basicsize == sizeof(pa_array)
           && tp->tp_itemsize == 0 && strcmp(tp->tp_name, "array.array") == 0;
}

/* An item of an array.array at a small non-negative int index (the specialized form checks
 * the bounds); fills the type's version.  Returns a failure kind, PA_FAIL_NONE on success. */
static int
array_item_site(PyTypeObject *tp, PyObject *sub, uint32_t *version_field)
{
    if (!PyLong_CheckExact(sub)) {
        return PA_FAIL_OPERANDS;
    }
    if (!PA_IS_SMALL_INDEX(sub)) {
        return PA_FAIL_NEGATIVE_OR_RANGE;
    }
    uint32_t version = type_version(tp, &_Py_ID(__getitem__));
    if (version == 0) {
        return PA_FAIL_NO_TYPE_VERSION;
    }
    *version_field = version;
    return PA_FAIL_NONE;
}

static void
specialize_binary_subscr(PyObject *container, PyObject *sub, uint32_t *instr)
{
    pa_cache_binary_subscr *cache = (pa_cache_binary_subscr *)(instr + 1);
    PyTypeObject *tp = Py_TYPE(container);
    int kind;
    if (tp == &PyList_Type || tp == &PyTuple_Type) {
        if (!PyLong_CheckExact(sub)) {
            kind = PA_FAIL_OPERANDS;
            goto fail;
        }
        if (!PA_IS_SMALL_INDEX(sub)) {
            kind = PA_FAIL_NEGATIVE_OR_RANGE;
            goto fail;
        }
        success(instr, tp == &PyList_Type ? PA_BINARY_SUBSCR_LIST_INT
                                          : PA_BINARY_SUBSCR_TUPLE_INT);
        return;
    }
    if (tp == &PyDict_Type) {
        success(instr, PA_BINARY_SUBSCR_DICT);
        return;
    }
    if (tp == &PyUnicode_Type) {
        /* one character of a one-byte (latin-1) string: every such character has its
         * cached one-character str, which is what str's own subscript returns */
        if (!PyLong_CheckExact(sub)) {
            kind = PA_FAIL_OPERANDS;
            goto fail;
        }
        if (!PA_IS_SMALL_INDEX(sub)) {
            kind = PA_FAIL_NEGATIVE_OR_RANGE;
            goto fail;
        }
        if (PyUnicode_KIND(container) != PyUnicode_1BYTE_KIND) {
            kind = PA_FAIL_STR_NOT_LATIN1;
            goto fail;
        }
        success(instr, PA_BINARY_SUBSCR_STR_INT);
        return;
    }
    if (is_array_type(tp)) {
        kind = array_item_site(tp, sub, &cache->type_version);
        if (kind != PA_FAIL_NONE) {
            goto fail;
        }
        success(instr, PA_BINARY_SUBSCR_ARRAY_INT);
        return;
    }
    if (tp->tp_flags & Py_TPFLAGS_HEAPTYPE) {
        PyObject *getitem = _PyType_Lookup(tp, &_Py_ID(__getitem__));
        uint32_t version = type_version(tp, &_Py_ID(__getitem__));
        if (version == 0) {
            kind = PA_FAIL_NO_TYPE_VERSION;
            goto fail;
        }
        kind = simple_function(getitem, 2, PA_FAIL_CALLABLE);
        if (kind != PA_FAIL_NONE) {
            goto fail;
        }
        if (other_hook_in_slot()) {
            kind = PA_FAIL_OTHER;
            goto fail;
        }
        /* the function lives in the type's specializer slot; the version guards it */
        ((PyHeapTypeObject *)tp)->_spec_cache.getitem = getitem;
        cache->type_version = version;
        cache->func_version = pa_func_version((PyFunctionObject *)getitem);
        success(instr, PA_BINARY_SUBSCR_GETITEM);
        return;
    }
    kind = PA_FAIL_CONTAINER;
fail:
    failure(instr, kind);
}

static void
specialize_store_subscr(PyObject *container, PyObject *sub, uint32_t *instr)
{
    pa_cache_store_subscr *cache = (pa_cache_store_subscr *)(instr + 1);
    PyTypeObject *tp = Py_TYPE(container);
    int kind;
    if (tp == &PyList_Type) {
        if (!PyLong_CheckExact(sub) || !PA_IS_SMALL_INDEX(sub)) {
            kind = PyLong_CheckExact(sub) ? PA_FAIL_NEGATIVE_OR_RANGE : PA_FAIL_OPERANDS;
            goto fail;
        }
        success(instr, PA_STORE_SUBSCR_LIST_INT);
        return;
    }
    if (tp == &PyDict_Type) {
        success(instr, PA_STORE_SUBSCR_DICT);
        return;
    }
    if (is_array_type(tp)) {
        kind = array_item_site(tp, sub, &cache->type_version);
        if (kind != PA_FAIL_NONE) {
            goto fail;
        }
        success(instr, PA_STORE_SUBSCR_ARRAY_INT);
        return;
    }
    kind = PA_FAIL_CONTAINER;
fail:
    failure(instr, kind);
}

static void
specialize_unpack_sequence(PyObject *seq, uint32_t *instr, int oparg)
{
    if (PyTuple_CheckExact(seq) && PyTuple_GET_SIZE(seq) == oparg) {
        success(instr, oparg == 2 ? PA_UNPACK_SEQUENCE_TWO_TUPLE : PA_UNPACK_SEQUENCE_TUPLE);
        return;
    }
    if (PyList_CheckExact(seq) && PyList_GET_SIZE(seq) == oparg) {
        success(instr, PA_UNPACK_SEQUENCE_LIST);
        return;
    }
    failure(instr, PA_FAIL_SEQUENCE);
}

/* `key in container`: the forms guard the container's exact type only (a subclass may
 * override __contains__); the key's hash and comparisons stay the container's own. */
static void
specialize_contains_op(PyObject *container, uint32_t *instr)
{
    if (PyDict_CheckExact(container)) {
        success(instr, PA_CONTAINS_OP_DICT);
        return;
    }
    if (PyAnySet_CheckExact(container)) {
        success(instr, PA_CONTAINS_OP_SET);
        return;
    }
    failure(instr, PA_FAIL_CONTAINER);
}

/* A truth test (3.13's TO_BOOL).  The exact builtin types whose truth is one field (bool,
 * int, list, None, str) need no more than their exact type as a guard.  An instance of a
 * Python class is always true when neither the class nor a base gives it a truth of its own
 * (nb_bool, mp_length, sq_length: what PyObject_IsTrue asks, in that order); the class's
 * version guards that, as it changes when __bool__ or __len__ is added to the class or to a
 * base, and `__class__` assignment changes the type.  Other builtins (dict, tuple, float,
 * bytes, ...) and classes with __bool__ or __len__ stay with PyObject_IsTrue. */
static void
specialize_to_bool(PyObject *value, uint32_t *instr)
{
    PyTypeObject *tp = Py_TYPE(value);
    /* followed by a conditional jump (`if`, `while`, `and`, `or`): the form takes the branch */
    int next_op = PA_OPCODE(instr[1 + PA_CACHE_UNITS(pa_cache_to_bool)]);
    int fuse = next_op == PA_POP_JUMP_IF_FALSE || next_op == PA_POP_JUMP_IF_TRUE;
    if (PyBool_Check(value)) {
        success(instr, fuse ? PA_TO_BOOL_BOOL_JUMP : PA_TO_BOOL_BOOL);
        return;
    }
    if (PyLong_CheckExact(value)) {
        success(instr, fuse ? PA_TO_BOOL_INT_JUMP : PA_TO_BOOL_INT);
        return;
    }
    if (PyList_CheckExact(value)) {
        success(instr, fuse ? PA_TO_BOOL_LIST_JUMP : PA_TO_BOOL_LIST);
        return;
    }
    if (Py_IsNone(value)) {
        success(instr, fuse ? PA_TO_BOOL_NONE_JUMP : PA_TO_BOOL_NONE);
        return;
    }
    if (PyUnicode_CheckExact(value)) {
        success(instr, fuse ? PA_TO_BOOL_STR_JUMP : PA_TO_BOOL_STR);
        return;
    }
    if (!(tp->tp_flags & Py_TPFLAGS_HEAPTYPE)) {
        failure(instr, PA_FAIL_TRUTH_BUILTIN);
        return;
    }
    if ((tp->tp_as_number != NULL && tp->tp_as_number->nb_bool != NULL)
            || (tp->tp_as_mapping != NULL && tp->tp_as_mapping->mp_length != NULL)
            || (tp->tp_as_sequence != NULL && tp->tp_as_sequence->sq_length != NULL)) {
        failure(instr, PA_FAIL_TRUTH_DEFINED);
        return;
    }
    uint32_t version = type_version(tp, &_Py_ID(__bool__));
    if (version == 0) {
        failure(instr, PA_FAIL_NO_TYPE_VERSION);
        return;
    }
    ((pa_cache_to_bool *)(instr + 1))->type_version = version;
    success(instr, fuse ? PA_TO_BOOL_ALWAYS_TRUE_JUMP : PA_TO_BOOL_ALWAYS_TRUE);
}

/* ---- calls ---- */

static PyObject *
builtin(const char *name)
{
    PyObject *builtins = PyEval_GetBuiltins();
    return builtins == NULL ? NULL : PyDict_GetItemString(builtins, name);
}

/* Whether each keyword-only parameter of `func` has a default now, in a __kwdefaults__ that
 * CALL_PY_VARARGS's binder reads (a dict with str keys only: push_frame_general). */
static int
keyword_only_defaulted(PyFunctionObject *func)
{
    PyCodeObject *co = (PyCodeObject *)func->func_code;
    if (co->co_kwonlyargcount == 0) {
        return 1;
    }
    PyObject *kwdefaults = func->func_kwdefaults;
    if (kwdefaults == NULL || !PyDict_CheckExact(kwdefaults)
            || !DK_IS_UNICODE(((PyDictObject *)kwdefaults)->ma_keys)) {
        return 0;
    }
    for (int i = 0; i < co->co_kwonlyargcount; i++) {
        PyObject *name = PyTuple_GET_ITEM(co->co_localsplusnames, co->co_argcount + i);
        if (PyDict_GetItemWithError(kwdefaults, name) == NULL) {
            return 0;
        }
    }
    return 1;
}

static void
specialize_call(PyObject *callable, uint32_t *instr, int nargs, PyObject *kwnames,
                int is_meth)
{
    pa_cache_call *cache = (pa_cache_call *)(instr + 1);
    int kind;
    PyTypeObject *ct = Py_TYPE(callable);
    if (ct == &PyFunction_Type) {
        PyFunctionObject *func = (PyFunctionObject *)callable;
        PyCodeObject *co = (PyCodeObject *)func->func_code;
        if (kwnames != NULL) {
            kind = PA_FAIL_KWNAMES;
            goto fail;
        }
        /* generator and coroutine functions too: their frame's RETURN_GENERATOR makes the
         * object (csrc/pa_frame311.c) and returns it to this call.  Not a function made of
         * module-level code (FunctionType(compile(...)), top-level await): its frame needs
         * the globals as its locals, which only the generic CALL sets up. */
        if (!(co->co_flags & CO_OPTIMIZED)) {
            kind = PA_FAIL_NOT_OPTIMIZED;
            goto fail;
        }
        /* *args, **kwargs or keyword-only parameters: CALL_PY_VARARGS's binder
         * (push_frame_general) takes the call if it would not raise now and each keyword-only
         * parameter has a default (the other shapes raise or need the generic binder) */
        int star = (co->co_flags & (CO_VARARGS | CO_VARKEYWORDS)) != 0 || co->co_kwonlyargcount;
        if (star && (co->co_kwonlyargcount > PA_KWONLY_MAX
                     || !keyword_only_defaulted(func)
                     || (!(co->co_flags & CO_VARARGS) && nargs > co->co_argcount))) {
            kind = PA_FAIL_ARGS_SHAPE;
            goto fail;
        }
        kind = callee_unit_kind(co);
        if (kind != PA_FAIL_NONE) {
            goto fail;
        }
        Py_ssize_t ndefaults = func->func_defaults ? PyTuple_GET_SIZE(func->func_defaults) : 0;
        int min_args = co->co_argcount - (int)ndefaults;
        if (nargs < min_args || (!star && nargs > co->co_argcount)) {
            kind = PA_FAIL_ARGS_SHAPE;
            goto fail;
        }
        uint32_t fv = pa_func_version(func);
        if (fv == 0 || other_hook_in_slot()) {
            kind = PA_FAIL_OTHER;
            goto fail;
        }
        cache->func_version = fv;
        if (star) {
            /* the argument counts it binds without the generic binder */
            cache->min_args = (uint32_t)(min_args > 0 ? min_args : 0);
            cache->init_lo = (co->co_flags & CO_VARARGS) ? UINT32_MAX : (uint32_t)co->co_argcount;
            cache->init_hi = 0;
            success(instr, PA_CALL_PY_VARARGS);
            return;
        }
        if (nargs == co->co_argcount) {
            /* no further functions yet (see pa_caches.h) */
            cache->min_args = cache->init_lo = cache->init_hi = fv;
            success(instr, PA_CALL_PY_EXACT_ARGS);
            return;
        }
        cache->min_args = (uint32_t)min_args;
        cache->init_lo = cache->init_hi = fv;       /* no further functions yet */
        success(instr, PA_CALL_PY_WITH_DEFAULTS);
        return;
    }
    if (PyType_Check(callable)) {
        PyTypeObject *tp = (PyTypeObject *)callable;
        if (kwnames == NULL && nargs == 1 && !is_meth) {
            if (tp == &PyType_Type) {
                success(instr, PA_CALL_TYPE_1);
                return;
            }
            if (tp == &PyUnicode_Type) {
                success(instr, PA_CALL_STR_1);
                return;
            }
            if (tp == &PyTuple_Type) {
                success(instr, PA_CALL_TUPLE_1);
                return;
            }
        }
        if (tp->tp_flags & Py_TPFLAGS_HEAPTYPE) {
            /* A Python class: object.__new__ then a Python __init__. */
            PyObject *init = _PyType_Lookup(tp, &_Py_ID(__init__));
            uint32_t version = type_version(tp, &_Py_ID(__init__));
            if (Py_TYPE(tp) != &PyType_Type || tp->tp_new != PyBaseObject_Type.tp_new
                    || (tp->tp_flags & Py_TPFLAGS_IS_ABSTRACT)) {
                kind = PA_FAIL_CUSTOM_NEW;
                goto fail;
            }
            if (version == 0) {
                kind = PA_FAIL_NO_TYPE_VERSION;
                goto fail;
            }
            if (init == NULL || !PyFunction_Check(init)) {
                kind = PA_FAIL_CALLABLE;
                goto fail;
            }
            PyCodeObject *ico = (PyCodeObject *)((PyFunctionObject *)init)->func_code;
            if (kwnames != NULL || (ico->co_flags & (CO_VARARGS | CO_VARKEYWORDS))
                    || ico->co_kwonlyargcount || ico->co_argcount != nargs + 1) {
                kind = kwnames != NULL ? PA_FAIL_KWNAMES : PA_FAIL_ARGS_SHAPE;
                goto fail;
            }
            kind = simple_function(init, nargs + 1, PA_FAIL_ARGS_SHAPE);
            if (kind != PA_FAIL_NONE) {
                goto fail;
            }
            if (other_hook_in_slot()) {
                kind = PA_FAIL_OTHER;
                goto fail;
            }
            cache->func_version = version;    /* the class's type version */
            cache->min_args = pa_func_version((PyFunctionObject *)init);
            pa_write_ptr(&cache->init_lo, &cache->init_hi, init);
            success(instr, PA_CALL_PY_CLASS);
            return;
        }
        if (tp->tp_vectorcall != NULL) {
            success(instr, PA_CALL_BUILTIN_CLASS);
            return;
        }
        kind = PA_FAIL_CALLABLE;
        goto fail;
    }
    if (ct == &PyCFunction_Type) {
        int flags = PyCFunction_GET_FLAGS(callable);
        if (kwnames == NULL && flags == METH_O && nargs == 1) {
            /* len(x) and isinstance(x, c) have their forms in their one shape, as natively */
            success(instr, callable == builtin("len") && !is_meth ? PA_CALL_LEN
                                                                  : PA_CALL_BUILTIN_O);
            return;
        }
        if (kwnames == NULL && flags == METH_FASTCALL) {
            success(instr, callable == builtin("isinstance") && nargs == 2 && !is_meth
                               ? PA_CALL_ISINSTANCE : PA_CALL_BUILTIN_FAST);
            return;
        }
        if (flags == (METH_FASTCALL | METH_KEYWORDS)) {
            success(instr, PA_CALL_BUILTIN_FAST_WITH_KEYWORDS);
            return;
        }
        kind = kwnames != NULL ? PA_FAIL_KWNAMES : PA_FAIL_CALLABLE;
        goto fail;
    }
    if (ct == &PyMethodDescr_Type && nargs >= 1) {
        PyMethodDef *meth = ((PyMethodDescrObject *)callable)->d_method;
        int flags = meth->ml_flags;
        if (kwnames == NULL) {
            PyObject *list_append = NULL;
            if (((PyMethodDescrObject *)callable)->d_common.d_type == &PyList_Type
                    && strcmp(meth->ml_name, "append") == 0) {
                list_append = callable;
            }
            if (list_append != NULL && nargs == 2 && is_meth) {   /* l.append(x), its shape */
                success(instr, PA_CALL_LIST_APPEND);
                return;
            }
            if (flags == METH_O && nargs == 2) {
                success(instr, PA_CALL_METHOD_DESCRIPTOR_O);
                return;
            }
            if (flags == METH_NOARGS && nargs == 1) {
                success(instr, PA_CALL_METHOD_DESCRIPTOR_NOARGS);
                return;
            }
            if (flags == METH_FASTCALL) {
                success(instr, PA_CALL_METHOD_DESCRIPTOR_FAST);
                return;
            }
        }
        if (flags == (METH_FASTCALL | METH_KEYWORDS)) {
            success(instr, PA_CALL_METHOD_DESCRIPTOR_FAST_WITH_KEYWORDS);
            return;
        }
        kind = kwnames != NULL ? PA_FAIL_KWNAMES : PA_FAIL_CALLABLE;
        goto fail;
    }
    kind = PA_FAIL_CALLABLE;
fail:
    if (Py_TYPE(callable) != &PyFunction_Type
            && (kind == PA_FAIL_CALLABLE || kind == PA_FAIL_CUSTOM_NEW
                || kind == PA_FAIL_UNCOMPILABLE
                || (kind == PA_FAIL_KWNAMES && !PyType_Check(callable)))) {
        /* a callable no other form takes, for a reason that lasts (its kind; keywords to a
         * C function): called as the generic CALL calls it, without the adaptive counter
         * and the attempts after each backoff (CPython 3.13's CALL_NON_PY_GENERAL).  A class
         * whose Python __init__ is not compiled yet, or has no type version, is tried again;
         * one called with keywords or another argument count stays adaptive, so the report
         * can say what would let CALL_PY_CLASS take it. */
        success(instr, PA_CALL_NON_PY_GENERAL);
        return;
    }
    failure(instr, kind);
}

int
pa_add_call_py_function(PyObject *callable, uint32_t *instr, int nargs)
{
    pa_cache_call *cache = (pa_cache_call *)(instr + 1);
    uint32_t first = cache->func_version;
    /* CALL_PY_WITH_DEFAULTS keeps its minimum argument count in min_args */
    int with_defaults = PA_OPCODE(instr[0]) == PA_CALL_PY_WITH_DEFAULTS;
    uint32_t *slot = !with_defaults && cache->min_args == first ? &cache->min_args
                     : cache->init_lo == first ? &cache->init_lo
                     : cache->init_hi == first ? &cache->init_hi : NULL;
    if (slot == NULL || Py_TYPE(callable) != &PyFunction_Type) {
        return 0;                       /* all slots taken, or not a function */
    }
    if (with_defaults) {
        /* the form fills missing arguments from the defaults at index i - min_args: the
         * function must have exactly that many required parameters */
        PyFunctionObject *func = (PyFunctionObject *)callable;
        Py_ssize_t ndefaults = func->func_defaults ? PyTuple_GET_SIZE(func->func_defaults) : 0;
        if (((PyCodeObject *)func->func_code)->co_argcount - ndefaults != (Py_ssize_t)cache->min_args) {
            return 0;
        }
    }
    /* the same decision, with the same checks, as a first specialization, on a scratch
     * copy of the instruction in its adaptive form (the counter's backoff kept) */
    uint32_t scratch[1 + PA_CACHE_UNITS(pa_cache_call)] = {0};
    scratch[0] = instr[0];
    PA_SET_OPCODE(&scratch[0], PA_CALL_ADAPTIVE);
    PA_SITE_COUNTER(scratch) = PA_COUNTER_ONLY_BACKOFF(PA_SITE_COUNTER(instr));
    specialize_call(callable, scratch, nargs, NULL, 0);
    uint32_t version = ((pa_cache_call *)(scratch + 1))->func_version;
    int form = PA_OPCODE(scratch[0]);
    if (version == 0 || (form != PA_CALL_PY_EXACT_ARGS && form != PA_CALL_PY_WITH_DEFAULTS)) {
        return 0;
    }
    if (form == PA_CALL_PY_WITH_DEFAULTS && !with_defaults) {
        /* a function that takes defaults at a site of functions that took none (as
         * copy.deepcopy's `copier(x, memo)`): the site becomes CALL_PY_WITH_DEFAULTS for this
         * function alone, its counter and hits kept; the functions it held join again at
         * their next call if they have the same number of required parameters.  This call
         * runs generically (the form running it expects no defaults). */
        pa_cache_call *made = (pa_cache_call *)(scratch + 1);
        cache->func_version = made->func_version;
        cache->min_args = made->min_args;
        cache->init_lo = made->init_lo;
        cache->init_hi = made->init_hi;
        PA_SET_OPCODE(&instr[0], PA_CALL_PY_WITH_DEFAULTS);
        return 1;
    }
    *slot = version;
    return 1;
}

static void
specialize_for_iter(PyObject *iter, uint32_t *instr)
{
    PyTypeObject *tp = Py_TYPE(iter);
    if (tp == &PyListIter_Type) {
        success(instr, PA_FOR_ITER_LIST);
    }
    else if (tp == &PyTupleIter_Type) {
        success(instr, PA_FOR_ITER_TUPLE);
    }
    else if (tp == &PyRangeIter_Type) {
        success(instr, PA_FOR_ITER_RANGE);
    }
    else if (tp == &PyGen_Type) {
        if (other_hook_in_slot()) {
            failure(instr, PA_FAIL_OTHER);
        }
        else {
            success(instr, PA_FOR_ITER_GEN);
        }
    }
    else if (tp->tp_iternext != NULL) {
        /* any other iterator (reversed lists, dict views' iterators, enumerate, zip, map,
         * set iterators, a class with __next__): its own tp_iternext, without the adaptive
         * form's countdown at each step */
        success(instr, PA_FOR_ITER_ITERNEXT);
    }
    else {
        failure(instr, PA_FAIL_ITERATOR);
    }
}

static void
specialize_send(PyObject *receiver, uint32_t *instr)
{
    if (Py_TYPE(receiver) != &PyGen_Type && Py_TYPE(receiver) != &PyCoro_Type) {
        failure(instr, PA_FAIL_ITERATOR);
    }
    else if (other_hook_in_slot()) {
        failure(instr, PA_FAIL_OTHER);
    }
    else {
        success(instr, PA_SEND_GEN);
    }
}

/* ---- super().name ---- */

/* What the MRO of `searched` holds under `name` after `klass` (borrowed, NULL if nothing or on
 * an error, which is cleared: the generic path meets it again), as super's own lookup finds it.
 * The searched type's version guards the MRO and each dict in it (a base's change clears its
 * subclasses' versions). */
static PyObject *
super_lookup(PyTypeObject *searched, PyTypeObject *klass, PyObject *name)
{
    PyObject *mro = searched->tp_mro;
    if (mro == NULL) {
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(mro), i = 0;
    while (i < n && PyTuple_GET_ITEM(mro, i) != (PyObject *)klass) {
        i++;
    }
    for (i++; i < n; i++) {
        PyObject *dict = PA_TYPE_DICT((PyTypeObject *)PyTuple_GET_ITEM(mro, i));
        PyObject *res = dict == NULL ? NULL : PyDict_GetItemWithError(dict, name);
        Py_XDECREF(dict);   /* the type holds its dict, the dict the attribute */
        if (res != NULL) {
            return res;
        }
        if (PyErr_Occurred()) {
            PyErr_Clear();
            return NULL;
        }
    }
    return NULL;
}

/* As CPython 3.12's specializer: the builtin super and a class that is a type; then the
 * searched type as super()'s check picks it (obj itself for a subclass of the class, else
 * type(obj), which must be a subclass) and what its MRO holds after the class. */
static void
specialize_load_super(PyObject *global_super, PyObject *klass, PyObject *self, PyObject *name,
                      uint32_t *instr, int method)
{
    pa_cache_load_super *cache = (pa_cache_load_super *)(instr + 1);
    if (global_super != (PyObject *)&PySuper_Type) {
        failure(instr, PA_FAIL_SUPER_SHADOWED);
        return;
    }
    if (!PyType_Check(klass)) {
        failure(instr, PA_FAIL_SUPER_BAD_CLASS);
        return;
    }
    int of_class = PyType_Check(self) && PyType_IsSubtype((PyTypeObject *)self, (PyTypeObject *)klass);
    PyTypeObject *searched = of_class ? (PyTypeObject *)self : Py_TYPE(self);
    if (!of_class && !PyType_IsSubtype(searched, (PyTypeObject *)klass)) {
        failure(instr, PA_FAIL_SUPER_OBJECT);
        return;
    }
    uint32_t version = type_version(searched, name);
    if (version == 0) {
        failure(instr, PA_FAIL_NO_TYPE_VERSION);
        return;
    }
    PyObject *descr = super_lookup(searched, (PyTypeObject *)klass, name);
    if (descr == NULL) {
        failure(instr, PA_FAIL_NOT_FOUND);
        return;
    }
    cache->type_version = version;
    pa_write_ptr(&cache->class_lo, &cache->class_hi, klass);
    pa_write_ptr(&cache->descr_lo, &cache->descr_hi, descr);
    if (method) {
        success(instr, of_class ? PA_LOAD_SUPER_METHOD_CLASS : PA_LOAD_SUPER_METHOD_INSTANCE);
    }
    else {
        success(instr, of_class ? PA_LOAD_SUPER_ATTR_CLASS : PA_LOAD_SUPER_ATTR_INSTANCE);
    }
}

/* ---- what each attempt saw (csrc/pa_sites.c keeps it) ----
 *
 * The entry points the loop calls: each counts the attempt at its site, runs the family's
 * specializer, and records what it met -- the operands' types and, for attributes and calls,
 * what kind of thing the name or the callable is -- so that a report can say why a site did
 * not specialize and what would let it.  Only attempts get here, never a guard or a hit. */

/* What `name` is on the type of `owner`, as attribute access will find it (the type's own
 * lookup: it runs no Python code).  *descr_type: the class attribute's type, if any. */
static const char *
attr_kind(PyObject *owner, PyObject *name, const char **descr_type)
{
    *descr_type = NULL;
    if (PyModule_CheckExact(owner)) {
        return "module attribute";
    }
    PyTypeObject *tp = Py_TYPE(owner);
    if (PyType_Check(owner)) {
        PyObject *on_class = _PyType_Lookup((PyTypeObject *)owner, name);
        if (on_class != NULL) {
            *descr_type = pa_type_name(Py_TYPE(on_class));
        }
        return Py_TYPE(owner) == &PyType_Type ? "attribute of a class"
                                              : "attribute of a class with a metaclass";
    }
    if (tp->tp_getattro != PyObject_GenericGetAttr) {
        if (_PyType_Lookup(tp, &_Py_ID(__getattr__)) != NULL) {
            return "class defines __getattr__";
        }
        PyObject *ga = _PyType_Lookup(tp, &_Py_ID(__getattribute__));
        if (ga != NULL && PyFunction_Check(ga)) {
            return "class defines __getattribute__";
        }
        return "type with its own attribute access (C)";
    }
    PyObject *descr = _PyType_Lookup(tp, name);
    if (descr == NULL) {
        if (!(tp->tp_flags & Py_TPFLAGS_MANAGED_DICT) && tp->tp_dictoffset == 0) {
            return "no instance dict, not on the class";
        }
        return "instance attribute";
    }
    PyTypeObject *dt = Py_TYPE(descr);
    *descr_type = pa_type_name(dt);
    if (dt == &PyMemberDescr_Type) {
        return "__slots__ member";
    }
    if (dt == &PyProperty_Type) {
        return "property";
    }
    if (dt == &PyFunction_Type) {
        return "method (a Python function)";
    }
    if (dt->tp_flags & Py_TPFLAGS_METHOD_DESCRIPTOR) {
        return "method of a C type";
    }
    if (dt == &PyClassMethod_Type || dt == &PyClassMethodDescr_Type) {
        return "classmethod";
    }
    if (dt == &PyStaticMethod_Type) {
        return "staticmethod";
    }
    if (dt->tp_descr_set != NULL) {
        return "data descriptor (defines __set__)";
    }
    if (dt->tp_descr_get != NULL) {
        return "descriptor (defines __get__)";
    }
    return "plain class attribute";
}

static void
saw_attr(pa_site_slot *site, uint32_t *instr, PyObject *owner, PyObject *name)
{
    if (site == NULL) {
        return;
    }
    const char *descr_type;
    const char *kind = attr_kind(owner, name, &descr_type);
    pa_site_saw(site, instr, pa_type_name(Py_TYPE(owner)), descr_type, kind);
}

/* What kind of callable a CALL met. */
static const char *
callable_kind(PyObject *callable, int nargs, PyObject *kwnames, const char **called)
{
    PyTypeObject *ct = Py_TYPE(callable);
    *called = NULL;
    if (ct == &PyFunction_Type) {
        PyCodeObject *co = (PyCodeObject *)((PyFunctionObject *)callable)->func_code;
        if ((co->co_flags & (CO_VARARGS | CO_VARKEYWORDS)) || co->co_kwonlyargcount) {
            return "Python function with *args, **kwargs or keyword-only parameters";
        }
        if (kwnames != NULL) {
            return "Python function, called with keyword arguments";
        }
        if (nargs != co->co_argcount) {
            return "Python function, called with fewer arguments than parameters";
        }
        return "Python function";
    }
    if (PyType_Check(callable)) {
        PyTypeObject *tp = (PyTypeObject *)callable;
        *called = pa_type_name(tp);
        if (!(tp->tp_flags & Py_TPFLAGS_HEAPTYPE)) {
            return "builtin class";
        }
        if (Py_TYPE(tp) != &PyType_Type) {
            return "class with a metaclass";
        }
        if (tp->tp_new != PyBaseObject_Type.tp_new) {
            return "class with its own __new__ (or a C base)";
        }
        PyObject *init = _PyType_Lookup(tp, &_Py_ID(__init__));
        if (init == NULL || !PyFunction_Check(init)) {
            return "class without a Python __init__";
        }
        return kwnames != NULL ? "class with a Python __init__, called with keyword arguments"
                               : "class with a Python __init__";
    }
    if (ct == &PyCFunction_Type) {
        return "builtin function";
    }
    if (ct == &PyMethodDescr_Type) {
        return "method of a builtin type";
    }
    if (ct == &PyMethod_Type) {
        return "bound method (not called through a method load)";
    }
    if (ct->tp_call == NULL) {
        return "not callable";
    }
    return "other callable object";
}

/* The types of one or two operands (b may be NULL). */
static void
saw_operands(pa_site_slot *site, uint32_t *instr, PyObject *a, PyObject *b)
{
    if (site != NULL) {
        pa_site_saw(site, instr, pa_type_name(Py_TYPE(a)),
                    b != NULL ? pa_type_name(Py_TYPE(b)) : NULL, NULL);
    }
}

void
pa_specialize_load_attr(PyObject *owner, PyObject *name, uint32_t *instr)
{
    pa_site_slot *site = pa_site_attempt(instr);
    specialize_load_attr(owner, name, instr);
    saw_attr(site, instr, owner, name);
}

void
pa_specialize_load_method(PyObject *owner, PyObject *name, uint32_t *instr)
{
    pa_site_slot *site = pa_site_attempt(instr);
    specialize_load_method(owner, name, instr);
    saw_attr(site, instr, owner, name);
}

void
pa_specialize_store_attr(PyObject *owner, PyObject *name, uint32_t *instr)
{
    pa_site_slot *site = pa_site_attempt(instr);
    specialize_store_attr(owner, name, instr);
    saw_attr(site, instr, owner, name);
}

void
pa_specialize_load_global(PyObject *globals, PyObject *builtins, PyObject *name,
                          uint32_t *instr)
{
    pa_site_slot *site = pa_site_attempt(instr);
    specialize_load_global(globals, builtins, name, instr);
    saw_operands(site, instr, globals, builtins);
}

void
pa_specialize_binary_op(PyObject *lhs, PyObject *rhs, uint32_t *instr, int oparg,
                        PyObject **locals)
{
    pa_site_slot *site = pa_site_attempt(instr);
    specialize_binary_op(lhs, rhs, instr, oparg, locals);
    saw_operands(site, instr, lhs, rhs);
}

void
pa_specialize_compare_op(PyObject *lhs, PyObject *rhs, uint32_t *instr, int oparg)
{
    pa_site_slot *site = pa_site_attempt(instr);
    specialize_compare_op(lhs, rhs, instr, oparg);
    saw_operands(site, instr, lhs, rhs);
}

void
pa_specialize_binary_subscr(PyObject *container, PyObject *sub, uint32_t *instr)
{
    pa_site_slot *site = pa_site_attempt(instr);
    specialize_binary_subscr(container, sub, instr);
    saw_operands(site, instr, container, sub);
}

void
pa_specialize_store_subscr(PyObject *container, PyObject *sub, uint32_t *instr)
{
    pa_site_slot *site = pa_site_attempt(instr);
    specialize_store_subscr(container, sub, instr);
    saw_operands(site, instr, container, sub);
}

void
pa_specialize_unpack_sequence(PyObject *seq, uint32_t *instr, int oparg)
{
    pa_site_slot *site = pa_site_attempt(instr);
    specialize_unpack_sequence(seq, instr, oparg);
    const char *detail = NULL;
    if ((PyTuple_CheckExact(seq) || PyList_CheckExact(seq)) && Py_SIZE(seq) != oparg) {
        detail = "length differs from the number of targets";
    }
    if (site != NULL) {
        pa_site_saw(site, instr, pa_type_name(Py_TYPE(seq)), NULL, detail);
    }
}

void
pa_specialize_contains_op(PyObject *key, PyObject *container, uint32_t *instr)
{
    pa_site_slot *site = pa_site_attempt(instr);
    specialize_contains_op(container, instr);
    saw_operands(site, instr, key, container);
}

void
pa_specialize_to_bool(PyObject *value, uint32_t *instr)
{
    pa_site_slot *site = pa_site_attempt(instr);
    specialize_to_bool(value, instr);
    saw_operands(site, instr, value, NULL);
}

void
pa_specialize_call(PyObject *callable, uint32_t *instr, int nargs, PyObject *kwnames,
                   int is_meth)
{
    pa_site_slot *site = pa_site_attempt(instr);
    specialize_call(callable, instr, nargs, kwnames, is_meth);
    if (site != NULL) {
        const char *called;
        const char *kind = callable_kind(callable, nargs, kwnames, &called);
        pa_site_saw(site, instr, pa_type_name(Py_TYPE(callable)), called, kind);
    }
}

void
pa_specialize_for_iter(PyObject *iter, uint32_t *instr)
{
    pa_site_slot *site = pa_site_attempt(instr);
    specialize_for_iter(iter, instr);
    saw_operands(site, instr, iter, NULL);
}

void
pa_specialize_send(PyObject *receiver, uint32_t *instr)
{
    pa_site_slot *site = pa_site_attempt(instr);
    specialize_send(receiver, instr);
    saw_operands(site, instr, receiver, NULL);
}

void
pa_specialize_load_super(PyObject *global_super, PyObject *klass, PyObject *self, PyObject *name,
                         uint32_t *instr, int method)
{
    pa_site_slot *site = pa_site_attempt(instr);
    specialize_load_super(global_super, klass, self, name, instr, method);
    if (site != NULL) {
        pa_site_saw(site, instr, pa_type_name(Py_TYPE(self)),
                    PyType_Check(klass) ? pa_type_name((PyTypeObject *)klass) : NULL,
                    PyType_Check(self) ? "super() of a class" : "super() of an instance");
    }
}
