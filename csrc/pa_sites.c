/* pa_sites.c -- what the specializer saw, per site: a side table off the hot path.
 *
 * The inline caches hold what a handler needs and no more (the counter with its backoff and
 * last failure kind, the hits).  What a person needs to fix a site -- the operand types it
 * met, the kind of callable or attribute, how often it deoptimized -- is kept here instead,
 * in a sorted array per unit (pa_unit.site_records), written only by the specializer
 * (pa_specialize.c, cold code): once per specialization attempt, and when a polymorphic
 * attribute form meets a type it does not hold.  No handler and no guard touches it.
 *
 * A deopt is not seen where it happens (the loop's miss path): the site's counter says it
 * at the next attempt -- an adaptive counter with a backoff and no failure kind was left by
 * a deopt (a failed attempt sets the kind, a success and re-quickening clear the backoff
 * or start from none).  A deopt not yet followed by an attempt is visible the same way in
 * the cache; pyadapt/_sites.py adds it.
 *
 * Type names are interned (a copy per distinct name, kept for the life of the process, at
 * most PA_TYPE_NAMES_MAX): a heap type's tp_name dies with its class.
 */
#include "pa_internal.h"
#include "pa_caches.h"

/* ---- interned type names ---- */

#define PA_TYPE_NAMES_MAX 4096
static const char *type_names[2 * PA_TYPE_NAMES_MAX];   /* open addressing, half full */
static size_t ntype_names;

static size_t
name_hash(const char *s)
{
    size_t h = 5381;
    for (; *s; s++) {
        h = h * 33 + (unsigned char)*s;
    }
    return h;
}

const char *
pa_type_name(PyTypeObject *tp)
{
    const char *name = tp->tp_name != NULL ? tp->tp_name : "?";
    size_t mask = 2 * PA_TYPE_NAMES_MAX - 1;
    for (size_t i = name_hash(name) & mask;; i = (i + 1) & mask) {
        if (type_names[i] == NULL) {
            if (ntype_names >= PA_TYPE_NAMES_MAX) {
                return "(a type among too many)";
            }
            size_t n = strlen(name) + 1;
            char *copy = malloc(n);
            if (copy == NULL) {
                return "?";
            }
            memcpy(copy, name, n);
            type_names[i] = copy;
            ntype_names++;
            return copy;
        }
        if (strcmp(type_names[i], name) == 0) {
            return type_names[i];
        }
    }
}

/* ---- the records of a unit ---- */

/* The unit whose code holds `instr`: the frame the loop runs (the specializer is called by
 * the instruction being executed), or NULL for a scratch copy of an instruction. */
static pa_unit *
unit_of(const uint32_t *instr)
{
    _PyInterpreterFrame *frame = PA_CURRENT_FRAME(PyThreadState_GET());
    if (frame == NULL) {
        return NULL;
    }
    pa_unit *u = pa_unit_for_code(PA_FRAME_CODE(frame));
    if (u == NULL || instr < u->code || instr >= u->code + u->ncode) {
        return NULL;
    }
    return u;
}

static pa_site_slot *
record_for(pa_unit *u, int32_t index)
{
    pa_site_slot *records = u->site_records;
    int lo = 0, hi = u->nsite_records;
    /* sites are met mostly in code order: try the end first */
    if (hi > 0 && records[hi - 1].index < index) {
        lo = hi;
    }
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        int32_t at = records[mid].index;
        if (at == index) {
            return &records[mid];
        }
        if (at < index) {
            lo = mid + 1;
        }
        else {
            hi = mid;
        }
    }
    if (u->nsite_records == u->site_records_cap) {
        /* One more at a time: a site is added once, at its first specialization attempt
         * (off the hot path), and most units keep a handful; doubling from 4 left 30% of
         * the records' bytes unused over pytest's units (bench/unit_memory.py). */
        int cap = u->site_records_cap + 1;
        pa_site_slot *grown = realloc(records, sizeof(pa_site_slot) * (size_t)cap);
        if (grown == NULL) {
            return NULL;
        }
        u->site_records = records = grown;
        u->site_records_cap = cap;
    }
    memmove(&records[lo + 1], &records[lo], sizeof(pa_site_slot) * (size_t)(u->nsite_records - lo));
    u->nsite_records++;
    pa_site_slot *r = &records[lo];
    memset(r, 0, sizeof(*r));
    r->index = index;
    return r;
}

pa_site_slot *
pa_site_attempt(const uint32_t *instr)
{
    if (!pa_config.record_sites) {
        return NULL;
    }
    pa_unit *u = unit_of(instr);
    if (u == NULL) {
        return NULL;
    }
    pa_site_slot *r = record_for(u, (int32_t)(instr - u->code));
    if (r == NULL) {
        return NULL;
    }
    uint32_t counter = PA_SITE_COUNTER(instr);
    int op = PA_OPCODE(instr[0]);
    if ((pa_opinfo_table[op].flags & PA_F_ADAPTIVE) && PA_COUNTER_KIND(counter) == 0
            && PA_COUNTER_BACKOFF(counter) != 0) {
        r->deopts++;
    }
    r->attempts++;
    return r;
}

static pa_site_seen *
seen_at(pa_site_slot *r, uint32_t i)
{
    return i == 0 ? &r->first : &r->more[i - 1];
}

static void note(pa_site_slot *r, const char *type0, const char *type1,
                 const char *detail, int32_t outcome);

void
pa_site_saw(pa_site_slot *r, const uint32_t *instr, const char *type0, const char *type1,
            const char *detail)
{
    if (r == NULL) {
        return;
    }
    /* `r` says the attempt was recorded; the record itself is found again, because the
     * specializer ran since pa_site_attempt and an attempt it made at another site of the
     * unit (a call specializer adding a function, say) may have moved the array. */
    pa_unit *u = unit_of(instr);
    r = u != NULL ? record_for(u, (int32_t)(instr - u->code)) : NULL;
    if (r == NULL) {
        return;
    }
    int op = PA_OPCODE(instr[0]);
    int32_t outcome = (pa_opinfo_table[op].flags & PA_F_ADAPTIVE)
                      ? -(int32_t)PA_COUNTER_KIND(PA_SITE_COUNTER(instr)) : op;
    note(r, type0, type1, detail, outcome);
}

const char *const PA_SEEN_MISSED = "missed its guards";

void
pa_site_missed(const uint32_t *instr, PyObject *const *stack_pointer, int family, int oparg)
{
    if (!pa_config.record_misses || !pa_config.record_sites) {
        return;
    }
    /* the operands as the instruction found them: a guard fails before any is consumed */
    PyObject *a, *b = NULL;
    switch (family) {
    case PA_BINARY_OP: case PA_COMPARE_OP: case PA_BINARY_SUBSCR: case PA_STORE_SUBSCR:
    case PA_CONTAINS_OP:
        a = stack_pointer[-2];
        b = stack_pointer[-1];
        break;
    case PA_LOAD_ATTR: case PA_LOAD_METHOD: case PA_STORE_ATTR: case PA_FOR_ITER:
    case PA_UNPACK_SEQUENCE: case PA_TO_BOOL:
        a = stack_pointer[-1];
        break;
    case PA_SEND:
        a = stack_pointer[-2];
        break;
    case PA_CALL: {
        PyObject *const *base = stack_pointer - oparg - 2;
        a = base[0] != NULL ? base[0] : base[1];
        break;
    }
    default:
        return;             /* LOAD_GLOBAL: its guards are about dicts, not operands */
    }
    pa_unit *u = unit_of(instr);
    pa_site_slot *r = u != NULL ? record_for(u, (int32_t)(instr - u->code)) : NULL;
    if (r != NULL) {
        note(r, pa_type_name(Py_TYPE(a)), b != NULL ? pa_type_name(Py_TYPE(b)) : NULL,
             PA_SEEN_MISSED, PA_OPCODE(instr[0]));
    }
}

static void
note(pa_site_slot *r, const char *type0, const char *type1, const char *detail,
     int32_t outcome)
{
    for (uint32_t i = 0; i < r->nseen; i++) {
        pa_site_seen *s = seen_at(r, i);
        /* interned names and static details: equal strings are the same pointer */
        if (s->types[0] == type0 && s->types[1] == type1 && s->detail == detail
                && s->outcome == outcome) {
            s->count++;
            return;
        }
    }
    if (r->nseen == 1 && r->more == NULL) {
        r->more = calloc(PA_SEEN_MAX - 1, sizeof(pa_site_seen));
    }
    if (r->nseen == PA_SEEN_MAX || (r->nseen >= 1 && r->more == NULL)) {
        r->unseen++;             /* no free entry (or no memory for more) */
        return;
    }
    pa_site_seen *s = seen_at(r, r->nseen++);
    s->types[0] = type0;
    s->types[1] = type1;
    s->detail = detail;
    s->outcome = outcome;
    s->count = 1;
}

PyObject *
pa_site_records_bytes(pa_unit *u)
{
    Py_ssize_t n = u != NULL ? u->nsite_records : 0;
    PyObject *bytes = PyBytes_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(pa_site_record));
    if (bytes == NULL) {
        return NULL;
    }
    pa_site_record *out = (pa_site_record *)PyBytes_AS_STRING(bytes);
    memset(out, 0, (size_t)n * sizeof(pa_site_record));
    for (Py_ssize_t i = 0; i < n; i++) {
        pa_site_slot *r = &u->site_records[i];
        out[i].index = r->index;
        out[i].attempts = r->attempts;
        out[i].deopts = r->deopts;
        out[i].nseen = r->nseen;
        out[i].unseen = r->unseen;
        for (uint32_t k = 0; k < r->nseen; k++) {
            out[i].seen[k] = *seen_at(r, k);
        }
    }
    return bytes;
}
