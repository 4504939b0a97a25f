/* pa_units.c -- the unit store: compiled units, which code object each belongs to, and
 * quickening.
 *
 * A unit belongs to its code object through pyadapt's own table (code object address ->
 * unit), not through the code object's co_extra slots.  co_extra is shared by every tool of
 * the process (debuggers, profilers, JITs): once pyadapt held a slot, another user got a
 * different index than natively, CPython called that user's free function with NULL for every
 * code object pyadapt had compiled, and such a free function that died before the code objects
 * (a ctypes callback, at interpreter exit) crashed the process.  pyadapt learns that a code
 * object died by wrapping the code type's deallocator (below), which retires and frees the
 * unit.
 *
 * The table is open addressing with linear probing and backward-shift deletion (no
 * tombstones), at most half full: a lookup is a multiply, a shift and, nearly always, one
 * probe -- as cheap as the co_extra lookup it replaced (docs/architecture.md has the counts).
 */
#include <string.h>

#include "pa_internal.h"
#include "pa_caches.h"

/* A zeroed unit at the start of a cache line: the fields a frame's start touches (the code,
 * the maps, `entries`, `flags`, `reject_reason`) are then one line, where malloc's 16-byte
 * alignment split them over two in three cases of four. */
#define PA_UNIT_ALIGN 64
static pa_unit *
unit_alloc(void)
{
    void *p = NULL;
    if (posix_memalign(&p, PA_UNIT_ALIGN, sizeof(pa_unit)) != 0) {
        return NULL;
    }
    return memset(p, 0, sizeof(pa_unit));
}

pa_unit *
pa_unit_new(int ncode, int ncpy, int nexc)
{
    if (ncode < 0 || ncpy < 0 || nexc < 0) {
        return NULL;
    }
    pa_unit *u = unit_alloc();
    if (u == NULL) {
        return NULL;
    }
    /* One block, in the order a frame entry reads it: the code, then at a fixed distance the
     * CPython offset of each code unit (CPY_OFFSET, half the code's size), the pyadapt index of each CPython code
     * unit, the exception table.  One allocation rather than four: the parts of a unit sit
     * together in memory, and malloc's overhead is paid once. */
    size_t code_bytes = ((size_t)ncode + 1) * sizeof(uint32_t);
    size_t to_bytes = ((size_t)ncode + 1) * sizeof(uint16_t);
    size_t from_bytes = ((size_t)ncpy + 2) * sizeof(uint16_t);
    size_t exc_offset = code_bytes + to_bytes + from_bytes;
    exc_offset = (exc_offset + _Alignof(pa_exc_entry) - 1) & ~(_Alignof(pa_exc_entry) - 1);
    char *block = calloc(1, exc_offset + ((size_t)nexc + 1) * sizeof(pa_exc_entry));
    if (block == NULL) {
        free(u);
        return NULL;
    }
    u->code = (uint32_t *)block;
    u->to_cpy = (uint16_t *)(block + code_bytes);
    u->from_cpy = (uint16_t *)(block + code_bytes + to_bytes);
    u->exc = (pa_exc_entry *)(block + exc_offset);
    u->ncode = ncode;
    u->ncpy = ncpy;
    u->nexc = nexc;
    return u;
}

/* A unit with no code: `co` is cold (whole-process mode, fewer than pa_config.compile_after
 * entries), its frames run in CPython's loop and only cold_entries counts them.  Its place
 * in the table saves a second lookup per entry; pa_unit_adopt fills it when `co` gets hot. */
pa_unit *
pa_unit_new_cold(void)
{
    pa_unit *u = unit_alloc();
    if (u != NULL) {
        u->reject_reason = PA_FB_COLD;
    }
    return u;
}

/* Move the compiled contents of `made` into the attached cold unit `cold` and free `made`'s
 * shell: the table, the registry and anyone holding `cold` keep the same pointer. */
void
pa_unit_adopt(pa_unit *cold, pa_unit *made)
{
    cold->code = made->code;
    cold->to_cpy = made->to_cpy;
    cold->from_cpy = made->from_cpy;
    cold->exc = made->exc;
    cold->ncode = made->ncode;
    cold->ncpy = made->ncpy;
    cold->nexc = made->nexc;
    cold->flags |= made->flags;
    cold->reject_reason = made->reject_reason;
    cold->reject_detail = made->reject_detail;
    free(made);
}

pa_caller_entry pa_caller_cache[PA_CALLER_CACHE_SIZE];
pa_caller_entry pa_resume_cache[PA_RESUME_CACHE_SIZE];

/* The unit's site records (pa_sites.c fills them; the unit owns their memory, so that the
 * unit store does not call the site records' file back). */
static void
site_records_clear(pa_unit *u)
{
    pa_site_slot *records = u->site_records;
    for (int i = 0; i < u->nsite_records; i++) {
        free(records[i].more);
    }
    free(records);
    u->site_records = NULL;
    u->nsite_records = u->site_records_cap = 0;
}

void
pa_unit_free(pa_unit *u)
{
    if (u == NULL) {
        return;
    }
    /* an entry may name this unit (see pa_internal.h); most units were never named (code
     * that ran a few frames under pytest), and emptying 6 KB at each of their deaths cost
     * more than the flag */
    if (u->flags & PA_UNIT_CACHED) {
        memset(pa_caller_cache, 0, sizeof(pa_caller_cache));
        memset(pa_resume_cache, 0, sizeof(pa_resume_cache));
    }
    free(u->code);                  /* the block of code, to_cpy, from_cpy and exc */
    site_records_clear(u);
    free(u);
}

/* All attached units (GIL-protected), so configure() can re-quicken them in place. */
pa_unit *pa_registry_head;

static void
registry_add(pa_unit *u)
{
    u->registry_prev = NULL;
    u->registry_next = pa_registry_head;
    if (pa_registry_head != NULL) {
        pa_registry_head->registry_prev = u;
    }
    pa_registry_head = u;
}

static void
registry_remove(pa_unit *u)
{
    pa_unit *prev = u->registry_prev, *next = u->registry_next;
    if (prev != NULL) {
        prev->registry_next = next;
    }
    else if (pa_registry_head == u) {
        pa_registry_head = next;
    }
    if (next != NULL) {
        next->registry_prev = prev;
    }
}

static int
super_of(int first, int second)
{
#define PA_SUPER(A, B, S) if (first == PA_##A && second == PA_##B) { return PA_##S; }
    PA_SUPERINSTRUCTION_LIST
#undef PA_SUPER
    return 0;
}

/* Quicken `code`, which holds the generic code, for the current configuration: in
 * adaptive mode, the adaptive form of each family (counter = warmup) and the
 * superinstructions; in generic mode, nothing.  Positions never change, so this is safe
 * while frames of the unit are suspended (generators, callers). */
void
pa_unit_quicken(pa_unit *u)
{
    site_records_clear(u);       /* the sites start over, as their counters do */
    if (!pa_config.specialize) {
        return;
    }
    int prev = -1, prev_op = 0;
    FOR_EACH_INSTRUCTION(u, i) {
        int op = PA_OPCODE(u->code[i]);
        if (pa_adaptive_of[op]) {
            PA_SET_OPCODE(&u->code[i], pa_adaptive_of[op]);
            PA_SITE_COUNTER(&u->code[i]) = pa_config.warmup;
        }
        if (prev >= 0) {
            int super = super_of(prev_op, op);
            if (super) {
                PA_SET_OPCODE(&u->code[prev], super);
            }
        }
        prev = pa_opinfo_table[op].ncache == 0 ? i : -1;
        prev_op = op;
    }
}

/* Add the per-site hit counts of `u` into the counter of each opcode: hits[0], then one
 * every `stride` bytes (sizeof(uint64_t) for an array of counts; sizeof(pa_opstats) to add
 * straight into pa_op_stats[op].hits). */
void
pa_unit_add_site_hits(pa_unit *u, uint64_t *hits, size_t stride)
{
    FOR_EACH_INSTRUCTION(u, i) {
        int op = PA_OPCODE(u->code[i]);
        if (pa_opinfo_table[op].ncache >= 2 && pa_opinfo_table[op].family != op) {
            *(uint64_t *)((char *)hits + (size_t)op * stride) += PA_SITE_HITS(&u->code[i]);
        }
    }
}

/* ---- code object -> unit ---- */

/* Before the first unit: two empty slots, indexed by the hash's top bit. */
static pa_unit_slot empty_table[2];
pa_units_index pa_units = {empty_table, 63, 1};
static size_t units_count;

/* `co` was not in its home slot `home`: walk the probe run.  When it is found further on,
 * it swaps places with the entry in its home slot, so that a code object looked up often
 * (every call and every return of a hot function) is found by the inline first probe from
 * then on.  The swap keeps every lookup valid: the slots from `home` to where `co` was are
 * all occupied (its probe run), and the entry moved out of `home` moves further along that
 * same run, past no empty slot.  (Measured under pytest on toolz's tests: 4.1 M of about
 * 6.3 M lookups missed the first probe, most of them a hot code object two slots on.) */
pa_unit *
pa_unit_probe(PyCodeObject *co, size_t home)
{
    pa_unit_slot *table = pa_units.table;
    size_t mask = pa_units.mask;
    if (table[home].code == NULL) {
        return NULL;
    }
    for (size_t i = (home + 1) & mask;; i = (i + 1) & mask) {
        pa_unit_slot *slot = &table[i];
        if (slot->code == co) {
            pa_unit_slot found = *slot;
            *slot = table[home];
            table[home] = found;
            return found.unit;
        }
        if (slot->code == NULL) {
            return NULL;
        }
    }
}

static void
table_insert(pa_unit_slot *table, size_t mask, int shift, PyCodeObject *co, pa_unit *u)
{
    size_t i = pa_code_hash(co, shift);
    while (table[i].code != NULL) {
        i = (i + 1) & mask;
    }
    table[i].code = co;
    table[i].unit = u;
}

/* Make room for one more entry; -1 (no exception set) if memory runs out. */
static int
table_reserve(void)
{
    size_t capacity = pa_units.mask + 1;
    if (pa_units.table != empty_table && 2 * (units_count + 1) <= capacity) {
        return 0;
    }
    size_t new_capacity = pa_units.table == empty_table ? 1024 : 2 * capacity;
    int new_shift = 64;
    for (size_t c = new_capacity; c > 1; c >>= 1) {
        new_shift--;
    }
    pa_unit_slot *table = calloc(new_capacity, sizeof(pa_unit_slot));
    if (table == NULL) {
        return -1;
    }
    if (pa_units.table != empty_table) {
        for (size_t i = 0; i < capacity; i++) {
            if (pa_units.table[i].code != NULL) {
                table_insert(table, new_capacity - 1, new_shift, pa_units.table[i].code,
                             pa_units.table[i].unit);
            }
        }
        free(pa_units.table);
    }
    pa_units.table = table;
    pa_units.mask = new_capacity - 1;
    pa_units.shift = new_shift;
    return 0;
}

static void
table_remove(PyCodeObject *co)
{
    pa_unit_slot *table = pa_units.table;
    size_t mask = pa_units.mask;
    size_t i = pa_code_hash(co, pa_units.shift);
    while (table[i].code != co) {
        if (table[i].code == NULL) {
            return;
        }
        i = (i + 1) & mask;
    }
    /* Backward shift: move later entries of the probe run into the hole when the hole lies
     * between their home slot and where they sit, so no lookup ever stops early. */
    size_t hole = i;
    for (size_t j = (i + 1) & mask; table[j].code != NULL; j = (j + 1) & mask) {
        size_t home = pa_code_hash(table[j].code, pa_units.shift);
        if (((j - home) & mask) >= ((j - hole) & mask)) {
            table[hole] = table[j];
            hole = j;
        }
    }
    table[hole].code = NULL;
    table[hole].unit = NULL;
    units_count--;
}

/* ---- learning that a code object died ---- */

/* Retire a unit: its per-site hit counts go into the totals, then it is freed.  They go
 * straight into pa_op_stats: summing into an array of 256 counts first, zeroed and added up
 * at every code object's death, was most of the cost of freeing units (callgrind, pytest on
 * toolz's tests: unit_retire and the dealloc wrapper 8.26 -> 5.14 M instructions). */
static void
unit_retire(pa_unit *u)
{
    registry_remove(u);
    if (PA_UNIT_COMPILED(u)) {
        pa_unit_add_site_hits(u, &pa_op_stats[0].hits, sizeof(pa_opstats));
    }
    pa_unit_free(u);
}

/* The code type's own deallocator, which pa_units_init wraps.  A weak reference per unit
 * would do the same, but a program can see those (weakref.getweakrefcount(code),
 * gc.get_objects(), gc.get_referrers()), and each costs a GC-tracked object; the wrapper
 * costs one table lookup per code object freed and nothing a program can see.  A frame of
 * the code holds a strong reference to it, so no unit dies while it runs. */
static destructor code_dealloc;

static void
code_dealloc_with_unit(PyObject *op)
{
    PyCodeObject *co = (PyCodeObject *)op;
    pa_unit *u = pa_unit_for_code(co);
    if (u != NULL) {
        table_remove(co);
        unit_retire(u);
    }
    code_dealloc(op);
}

void
pa_units_init(void)
{
    if (code_dealloc == NULL) {
        code_dealloc = PyCode_Type.tp_dealloc;
        PyCode_Type.tp_dealloc = code_dealloc_with_unit;
    }
}

/* Attach `u` to `co`: 0, or -1 out of memory (`u` not attached; no exception set). */
int
pa_unit_attach(PyCodeObject *co, pa_unit *u)
{
    if (table_reserve() < 0) {
        return -1;
    }
    u->code_object = co;
    table_insert(pa_units.table, pa_units.mask, pa_units.shift, co, u);
    units_count++;
    registry_add(u);
    return 0;
}
