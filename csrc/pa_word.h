/* pa_word.h -- the instruction word and the adaptive counter: the only C code that encodes
 * or decodes them (pyadapt/_word.py is the only Python).  Field widths are constants of the
 * cdef (pa_cdef.h), so Python reads the same numbers.
 *
 * Instruction word, one 32-bit code unit:
 *
 *     31                                 8 7            0
 *    +------------------------------------+--------------+
 *    |               oparg                |    opcode    |
 *    +------------------------------------+--------------+
 *
 * Inline cache: the units after the word; every family's cache struct (pa_caches.h) begins
 * with the cache head, { counter, hits } (checked in pa_hook.c), so PA_SITE_COUNTER and
 * PA_SITE_HITS work on any instruction that has a cache.
 *
 * Counter, the first cache unit:
 *
 *     31          24 23      20 19                       0
 *    +--------------+----------+--------------------------+
 *    | failure kind | backoff  |        countdown         |
 *    +--------------+----------+--------------------------+
 *
 * countdown: warmup or backoff of an adaptive form, miss budget of a specialized form;
 * backoff: exponent of the wait after a failure or a deopt; failure kind: pa_fail_names
 * index of the last failed specialization attempt, 0 for none.
 *
 * Type slot, one cache unit of a polymorphic LOAD_ATTR_/STORE_ATTR_INSTANCE_VALUE site (the
 * types it holds besides the first, pa_caches.h):
 *
 *     31       26 25                                  0
 *    +-----------+-------------------------------------+
 *    |   index   |         type version (tp_version_tag) |
 *    +-----------+-------------------------------------+
 *
 * index: where that type's instances keep the attribute in their inline values.  A type
 * version is never 0, so 0 is a free slot; a type whose version or index does not fit is
 * not held (a miss).
 */
#ifndef PA_WORD_H
#define PA_WORD_H

#include <stddef.h>
#include <stdint.h>

#define PA_OPCODE_MASK ((1u << PA_OPCODE_BITS) - 1)
#define PA_MAX_OPARG ((1u << PA_OPARG_BITS) - 1)

#define PA_WORD(op, arg) ((uint32_t)(op) | ((uint32_t)(arg) << PA_OPCODE_BITS))
#define PA_OPCODE(word) ((word) & PA_OPCODE_MASK)
#define PA_OPARG(word) ((word) >> PA_OPCODE_BITS)
/* Rewrite the opcode of the word at `instr` in place, keeping its oparg. */
#define PA_SET_OPCODE(instr, op) (*(instr) = (*(instr) & ~PA_OPCODE_MASK) | (uint32_t)(op))

#define PA_COUNTER_BACKOFF_SHIFT PA_COUNTER_VALUE_BITS
#define PA_COUNTER_KIND_SHIFT (PA_COUNTER_VALUE_BITS + PA_COUNTER_BACKOFF_BITS)
#define PA_MAX_WARMUP ((1u << PA_COUNTER_VALUE_BITS) - 1)
#define PA_MAX_BACKOFF ((1u << PA_COUNTER_BACKOFF_BITS) - 1)

#define PA_COUNTER(kind, backoff, value) \
    (((uint32_t)(kind) << PA_COUNTER_KIND_SHIFT) \
     | ((uint32_t)(backoff) << PA_COUNTER_BACKOFF_SHIFT) | (uint32_t)(value))
#define PA_COUNTER_VALUE(c) ((c) & PA_MAX_WARMUP)
#define PA_COUNTER_BACKOFF(c) (((c) >> PA_COUNTER_BACKOFF_SHIFT) & PA_MAX_BACKOFF)
#define PA_COUNTER_KIND(c) ((c) >> PA_COUNTER_KIND_SHIFT)
/* The counter with its countdown and failure kind cleared: the site's deopt history. */
#define PA_COUNTER_ONLY_BACKOFF(c) PA_COUNTER(0, PA_COUNTER_BACKOFF(c), 0)

#define PA_TYPE_SLOT_VERSION_BITS (32 - PA_TYPE_SLOT_INDEX_BITS)
#define PA_TYPE_SLOT_VERSION_MASK ((1u << PA_TYPE_SLOT_VERSION_BITS) - 1)
#define PA_TYPE_SLOT_FREE 0u
#define PA_TYPE_SLOT_FITS(version, index) \
    ((version) != 0 && (version) <= PA_TYPE_SLOT_VERSION_MASK \
     && (index) < (1u << PA_TYPE_SLOT_INDEX_BITS))
#define PA_TYPE_SLOT(version, index) \
    (((uint32_t)(index) << PA_TYPE_SLOT_VERSION_BITS) | (uint32_t)(version))
#define PA_TYPE_SLOT_VERSION(slot) ((slot) & PA_TYPE_SLOT_VERSION_MASK)
#define PA_TYPE_SLOT_INDEX(slot) ((slot) >> PA_TYPE_SLOT_VERSION_BITS)

/* The slot of `a`, `b` that holds type version `version`, or PA_TYPE_SLOT_FREE (also when
 * `version` is 0: a free slot is never returned as a match). */
static inline uint32_t
pa_type_slot_find(uint32_t version, uint32_t a, uint32_t b)
{
    if (PA_TYPE_SLOT_VERSION(a) == version) {
        return a;
    }
    return PA_TYPE_SLOT_VERSION(b) == version ? b : PA_TYPE_SLOT_FREE;
}

/* The slot of `a`, `b`, `c` that holds type version `version`, or PA_TYPE_SLOT_FREE (as
 * pa_type_slot_find). */
static inline uint32_t
pa_type_slot_find3(uint32_t version, uint32_t a, uint32_t b, uint32_t c)
{
    if (PA_TYPE_SLOT_VERSION(a) == version) {
        return a;
    }
    return pa_type_slot_find(version, b, c);
}

/* A pointer in two cache units (lo, hi): a cached object, or LOAD_METHOD_WITH_VALUES_MEGA's
 * table entry.  The only code that splits or joins one. */
static inline void *
pa_read_ptr(uint32_t lo, uint32_t hi)
{
    return (void *)(uintptr_t)(((uint64_t)hi << 32) | lo);
}
static inline void
pa_write_ptr(uint32_t *lo, uint32_t *hi, const void *ptr)
{
    uint64_t v = (uint64_t)(uintptr_t)ptr;
    *lo = (uint32_t)v;
    *hi = (uint32_t)(v >> 32);
}

/* The counter and the hit count of the instruction whose word is at `instr`: fields of its
 * cache head (pa_cache_head, pa_caches.h, which the including file includes), indexed as
 * code units rather than through a struct pointer, which keeps the loop's machine code
 * as it was with hand-written indices. */
#define PA_CACHE_UNIT(T, FIELD) (offsetof(T, FIELD) / sizeof(uint32_t))
#define PA_SITE_COUNTER(instr) ((instr)[1 + PA_CACHE_UNIT(pa_cache_head, counter)])
#define PA_SITE_HITS(instr) ((instr)[1 + PA_CACHE_UNIT(pa_cache_head, hits)])

#endif
