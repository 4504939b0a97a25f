/* pa_compile.c -- the compiler: a CPython code object -> a pyadapt unit.
 *
 * The compiler is C, not Python, so that compiling is invisible to the program: it runs no
 * Python code, so no signal handler, audit hook, tracemalloc trace or profiler sample can
 * happen inside it, and nothing a handler raises can be lost in it (the pending signal stays
 * pending until the program's own next instruction checks the eval breaker).  It is also
 * about 30x cheaper than the Python compiler it replaced (docs/architecture.md).
 *
 * What is version-specific about CPython's bytecode is data, not code: pa_decoder[] says for
 * each CPython opcode which pyadapt instruction it lowers to (another one when bit 0 of the
 * oparg is set, and how far the oparg shifts: 3.12's LOAD_ATTR and COMPARE_OP), how many
 * inline cache entries follow it and which way a relative jump goes.  The decoder of the
 * running version (pyadapt/_decode3XX.py) fills it at import from that interpreter's own
 * `opcode` module; this
 * file only walks the code units, which are laid out alike in 3.11, 3.12 and 3.13 (2-byte
 * units, EXTENDED_ARG prefixes, CACHE entries after the instruction, jumps relative to the
 * end of the instruction, the varint exception table).
 *
 * What the compiler changes relative to CPython's bytecode: CACHE entries and EXTENDED_ARG
 * disappear (pyadapt's caches are its own and opargs have 24 bits), dropped instructions
 * (3.11's PRECALL) leave their work to the next one, and relative jumps become absolute
 * pyadapt indices.  to_cpy gives the CPython offset of every unit of an instruction (what
 * the loop writes to prev_instr: line numbers, tracebacks and f_lasti stay CPython's);
 * from_cpy gives the pyadapt index of every CPython offset (generator resumption, handlers).
 */
#include "pa_internal.h"

pa_decode_entry pa_decoder[256];
int pa_decoder_ready;

typedef struct {
    const uint8_t *raw;      /* co_code: (opcode, oparg) byte pairs */
    int n;                   /* code units */
    int i;                   /* next unit to read */
    /* the instruction just read */
    int start;               /* its first unit (first EXTENDED_ARG) */
    int offset;              /* the unit of its opcode: what f_lasti shows */
    int end;                 /* the unit after its caches */
    uint32_t arg;            /* pyadapt's oparg (before jump targets are resolved) */
    int op;                  /* pyadapt's opcode (kind PA_DK_OP) */
    const pa_decode_entry *d;
} pa_reader;

/* The code units the compiler reads of `co`: (opcode, oparg) byte pairs.  Where the seam
 * says so (3.11), the code object's own quickened code: its specialized opcodes keep the
 * oparg and the inline cache entries of their family, and pa_decoder decodes them as that
 * family, so it reads as the generic code does.  Elsewhere (3.12+: instrumented opcodes
 * too) a de-quickened copy, which CPython caches in the code object.  PyCode_GetCode made
 * and kept that copy, 2 bytes per code unit of every code object pyadapt looked at (its
 * first entry asks pa_code_has_loop).  *owner gets what to release (NULL for none);
 * NULL (no exception set) when out of memory. */
static const uint8_t *
code_units(PyCodeObject *co, int *n, PyObject **owner)
{
#ifdef PA_COMPILE_READS_QUICKENED_CODE
    *owner = NULL;
    *n = (int)Py_SIZE(co);
    return (const uint8_t *)co->co_code_adaptive;
#else
    *owner = PyCode_GetCode(co);
    if (*owner == NULL) {
        PyErr_Clear();
        return NULL;
    }
    *n = (int)(PyBytes_GET_SIZE(*owner) / 2);
    return (const uint8_t *)PyBytes_AS_STRING(*owner);
#endif
}

/* Read the next CPython instruction; 0 at the end, -1 (with *err set) on malformed code. */
static int
read_instruction(pa_reader *r, const char **err)
{
    uint32_t ext = 0;
    r->start = r->i;
    while (r->i < r->n) {
        int op = r->raw[2 * r->i];
        uint32_t arg = r->raw[2 * r->i + 1] | ext;
        const pa_decode_entry *d = &pa_decoder[op];
        if (d->kind == PA_DK_EXTENDED_ARG) {
            if (ext > (PA_MAX_OPARG >> 8)) {      /* CPython's EXTENDED_ARG: 8 more bits */
                *err = "oparg too large";
                return -1;
            }
            ext = arg << 8;
            r->i++;
            continue;
        }
        if (d->kind == PA_DK_CACHE) {
            *err = "stray CACHE entry";
            return -1;
        }
        if (d->kind == PA_DK_UNKNOWN) {
            *err = "no pyadapt instruction for this CPython instruction";
            return -1;
        }
        r->offset = r->i;
        r->end = r->i + 1 + d->ncache;
        r->op = d->alt_op != 0 && (arg & 1) ? d->alt_op : d->pa_op;
        r->arg = arg >> d->arg_shift;
        if (d->arg_limit != 0 && r->arg >= d->arg_limit) {
            *err = "an oparg pyadapt has no instruction for (a typing intrinsic)";
            return -1;
        }
        r->d = d;
        r->i = r->end;
        if (r->end > r->n) {
            *err = "instruction runs past the end of the code";
            return -1;
        }
        return 1;
    }
    if (r->start != r->i) {
        *err = "EXTENDED_ARG at the end of the code";
        return -1;
    }
    return 0;
}

/* One number of the exception table: 6-bit chunks, most significant first, bit 6 set on
 * all but the last.  -1 past the end. */
static int64_t
read_varint(const uint8_t *p, Py_ssize_t n, Py_ssize_t *pos)
{
    if (*pos >= n) {
        return -1;
    }
    int64_t value = p[*pos] & 63;
    while (p[*pos] & 64) {
        if (++*pos >= n || value > (INT32_MAX >> 6)) {
            return -1;
        }
        value = (value << 6) | (p[*pos] & 63);
    }
    ++*pos;
    return value;
}

static int
exc_entry_less(const pa_exc_entry *a, const pa_exc_entry *b)
{
    if (a->start != b->start) return a->start < b->start;
    if (a->end != b->end) return a->end < b->end;
    if (a->handler != b->handler) return a->handler < b->handler;
    if (a->depth != b->depth) return a->depth < b->depth;
    return a->lasti < b->lasti;
}

/* Translate CPython's exception table into u->exc (pyadapt indices, sorted); entries that
 * cover only dropped instructions vanish.  Sets u->nexc. */
static int
translate_exception_table(PyCodeObject *co, pa_unit *u, int nentries, const char **err)
{
    const uint8_t *p = (const uint8_t *)PyBytes_AS_STRING(co->co_exceptiontable);
    Py_ssize_t n = PyBytes_GET_SIZE(co->co_exceptiontable), pos = 0;
    int k = 0;
    for (int e = 0; e < nentries; e++) {
        int64_t start = read_varint(p, n, &pos), length = read_varint(p, n, &pos);
        int64_t target = read_varint(p, n, &pos), depth_lasti = read_varint(p, n, &pos);
        if (start < 0 || length < 0 || target < 0 || depth_lasti < 0
                || start + length > u->ncpy || target >= u->ncpy) {
            *err = "malformed exception table";
            return -1;
        }
        pa_exc_entry x = {
            .start = (int32_t)u->from_cpy[start],
            .end = (int32_t)u->from_cpy[start + length],
            .handler = (int32_t)u->from_cpy[target],
            .depth = (int32_t)(depth_lasti >> 1),
            .lasti = (int32_t)(depth_lasti & 1),
        };
        if (x.start >= x.end) {
            continue;
        }
        int j = k++;                      /* insertion sort: tables are short and sorted */
        while (j > 0 && exc_entry_less(&x, &u->exc[j - 1])) {
            u->exc[j] = u->exc[j - 1];
            j--;
        }
        u->exc[j] = x;
    }
    u->nexc = k;
    return 0;
}

/* Entries of CPython's exception table (each begins with a byte whose bit 7 is set). */
static int
count_exception_entries(PyCodeObject *co)
{
    const uint8_t *p = (const uint8_t *)PyBytes_AS_STRING(co->co_exceptiontable);
    Py_ssize_t n = PyBytes_GET_SIZE(co->co_exceptiontable);
    int count = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        count += (p[i] & 128) != 0;
    }
    return count;
}

/* 1 if `co` has a backward jump (a loop: one frame of it may run long), 0 if not, -1 if its
 * code cannot be read (no exception set).  The hook asks this of a code object on its first
 * entry in whole-process mode, before deciding to leave it to CPython's loop while cold. */
int
pa_code_has_loop(PyCodeObject *co)
{
    if (!pa_decoder_ready) {
        return -1;
    }
    /* the hook may ask this with an exception set (a generator's first entry by throw()):
     * a failure here must not replace it */
    PyObject *type, *value, *tb, *owner;
    PyErr_Fetch(&type, &value, &tb);
    pa_reader r = {0};
    r.raw = code_units(co, &r.n, &owner);
    PyErr_Restore(type, value, tb);
    if (r.raw == NULL) {
        return -1;
    }
    /* Most code has no EXTENDED_ARG before its first loop or its end: walk the opcodes and
     * their caches without opargs first (a fraction of read_instruction's work), and read
     * the code properly only where that walk meets anything else -- an EXTENDED_ARG, an
     * oparg with a limit, a CACHE or unknown opcode, an instruction past the end -- whose
     * reading could fail.  A walk that reaches the end read what read_instruction would. */
    int i = 0, loop = 0, rc = 1;
    while (i < r.n) {
        const pa_decode_entry *d = &pa_decoder[r.raw[2 * i]];
        if ((d->kind != PA_DK_OP && d->kind != PA_DK_DROP) || d->arg_limit != 0
                || i + 1 + d->ncache > r.n) {
            break;
        }
        if (d->jump < 0) {
            loop = 1;
            break;
        }
        i += 1 + d->ncache;
    }
    const char *err;
    while (!loop && i < r.n && (rc = read_instruction(&r, &err)) > 0) {
        loop = r.d->jump < 0;
    }
    Py_XDECREF(owner);
    return loop ? 1 : rc < 0 ? -1 : 0;
}

/* One CPython instruction as read_instruction read it: the compiler reads the code once and
 * walks this array in its passes (reading costs more than walking: EXTENDED_ARG, the
 * decoder's table, the checks). */
typedef struct {
    const pa_decode_entry *d;
    int32_t start, offset, end;  /* as pa_reader's */
    int32_t op;                  /* pyadapt's opcode (kind PA_DK_OP) */
    uint32_t arg;                /* pyadapt's oparg (before jump targets are resolved) */
} pa_insn;

/* Every instruction of the reader's code, in a new array (malloc: not Python's allocator,
 * which tracemalloc would show as the program's); NULL with *err set on malformed code or
 * when out of memory. */
static pa_insn *
read_all(pa_reader *r, int *count, const char **err)
{
    /* an instruction is at least one code unit */
    pa_insn *v = malloc(sizeof(pa_insn) * ((size_t)r->n + 1));
    if (v == NULL) {
        *err = "no memory for the decoded code";
        return NULL;
    }
    int k = 0, rc;
    while ((rc = read_instruction(r, err)) > 0) {
        v[k++] = (pa_insn){r->d, r->start, r->offset, r->end, r->op, r->arg};
    }
    if (rc < 0) {
        free(v);
        return NULL;
    }
    *count = k;
    return v;
}

#if PA_STACK_TURNED_OVER
/* Where a comprehension's saved locals are on the stack at each yield (3.13).  Where CPython's
 * loop puts a call's NULL above its callable and pyadapt's under it, a generator's stack is
 * turned over at every yield and resume (pa_frames.h, PA_STACK_TO_CPYTHON), telling a call's
 * NULL by the value beside it.  An inlined comprehension saves its variables' old values on
 * the stack (LOAD_FAST_AND_CLEAR), NULL for an unbound one, and an `await` inside it
 * (`f([await g(x) for x in y])`, an async comprehension) suspends the frame with such a NULL
 * beside a value: turned over as a call's, the frame called NULL when the other loop resumed
 * it.  This walks the unit's flow, the stack as a depth and the positions that hold a saved
 * local, and puts those under each YIELD_VALUE's value into its oparg (PA_YIELD_SAVED), where
 * the yield and the resume read them.  A saved local is consumed by the STORE_FAST that
 * restores it or a POP_TOP, moved by SWAP, copied by COPY, cut by an exception handler's
 * depth; any other instruction reaching it, a join where the stacks disagree, or a yield
 * with a saved local deeper than the oparg holds, and the code is left to CPython's loop.
 * Only units with LOAD_FAST_AND_CLEAR are walked.  -1 with *err set if refused. */
#define SAVED_MAX_DEPTH 64
#define SAVED_BELOW(d) ((d) >= SAVED_MAX_DEPTH ? ~(uint64_t)0 : (((uint64_t)1 << (d)) - 1))

typedef struct {
    int32_t *depth;          /* per unit index: stack depth before it, -1 not reached */
    uint64_t *saved;         /* bit i: stack position i holds a saved local */
    int32_t *work;
    int nwork;
} saved_walk;

static int
saved_flow(saved_walk *w, const pa_unit *u, int32_t target, int32_t depth, uint64_t saved,
           const char **err)
{
    if (target < 0 || target >= u->ncode || depth < 0) {
        *err = "saved locals: a jump or handler out of the code";
        return -1;
    }
    if (w->depth[target] < 0) {
        w->depth[target] = depth;
        w->saved[target] = saved;
        w->work[w->nwork++] = target;
        return 0;
    }
    if (w->depth[target] != depth || w->saved[target] != saved) {
        *err = "saved locals: the stacks of two paths into one instruction differ";
        return -1;
    }
    return 0;
}

static int
no_fallthrough(int op)
{
    return op == PA_JUMP || op == PA_JUMP_NO_INTERRUPT || op == PA_RETURN_VALUE
           || op == PA_RETURN_CONST || op == PA_RERAISE || op == PA_RAISE_VARARGS;
}

static void
saved_walk_free(saved_walk *w)
{
    free(w->depth);
    free(w->saved);
    free(w->work);
}

/* The walk over generic code `u`; `mark`: put the positions into the YIELD_VALUEs.  The
 * depth and saved positions before each instruction stay in *w (saved_walk_free). */
static int
saved_walk_run(pa_unit *u, saved_walk *w_, int mark, const char **err)
{
    int n = u->ncode, rc = -1;
    *w_ = (saved_walk){malloc(sizeof(int32_t) * (size_t)n), calloc((size_t)n, sizeof(uint64_t)),
                       malloc(sizeof(int32_t) * (size_t)n), 0};
    saved_walk w = *w_;
    if (w.depth == NULL || w.saved == NULL || w.work == NULL) {
        *err = "no memory for the saved locals' walk";
        goto done;
    }
    for (int i = 0; i < n; i++) {
        w.depth[i] = -1;
    }
    if (saved_flow(&w, u, 0, 0, 0, err) < 0) {
        goto done;
    }
    while (w.nwork > 0) {
        int32_t pos = w.work[--w.nwork];
        int32_t d = w.depth[pos];
        uint64_t m = w.saved[pos];
        int op = (int)PA_OPCODE(u->code[pos]);
        uint32_t arg = PA_OPARG(u->code[pos]);
        for (int k = 0; k < u->nexc; k++) {
            const pa_exc_entry *e = &u->exc[k];
            if (e->start <= pos && pos < e->end) {
                if (e->depth > d) {
                    *err = "saved locals: a handler's depth above the stack";
                    goto done;
                }
                if (saved_flow(&w, u, e->handler, e->depth + e->lasti + 1,
                               m & SAVED_BELOW(e->depth), err) < 0) {
                    goto done;
                }
            }
        }
        if (op == PA_YIELD_VALUE && mark) {
            if (d < 1) {
                *err = "saved locals: a yield with nothing to yield";
                goto done;
            }
            uint64_t under = m & SAVED_BELOW(d - 1);
            if (under >> (PA_OPARG_BITS - 1)) {
                *err = "saved locals: a yield with a comprehension's saved local deep in the stack";
                goto done;
            }
            arg = PA_YIELD_FROM(arg) | (uint32_t)under << 1;
            u->code[pos] = PA_WORD(op, arg);
        }
        int jumps = pa_opinfo_table[op].arg == PA_ARG_JUMP;
        for (int jump = 0; jump <= jumps; jump++) {
            if (!jump && no_fallthrough(op)) {
                continue;
            }
            int pop, push;
            pa_stack_items(op, (int)arg, jump, &pop, &push);
            if (op == PA_RETURN_GENERATOR) {
                push = 1;        /* the value of the generator's first send, which the
                                  * POP_TOP after it pops (the row counts it nowhere) */
            }
            if (pop > d) {
                *err = "saved locals: the stack goes below its base";
                goto done;
            }
            uint64_t nm = m;
            if (op == PA_LOAD_FAST_AND_CLEAR) {
                if (d >= SAVED_MAX_DEPTH) {
                    *err = "saved locals: a comprehension's saved local deep in the stack";
                    goto done;
                }
                nm |= (uint64_t)1 << d;
            }
            else if (op == PA_SWAP || op == PA_COPY) {
                /* SWAP n exchanges positions d-1 and d-n, COPY n puts d-n's at d */
                int from = d - (int)arg, top = op == PA_SWAP ? d - 1 : d;
                if (from < 0) {
                    *err = "saved locals: SWAP or COPY below the stack";
                    goto done;
                }
                if (top >= SAVED_MAX_DEPTH) {
                    /* no saved local up there; none may go there either */
                    if ((m >> from) & 1) {
                        *err = "saved locals: a comprehension's saved local deep in the stack";
                        goto done;
                    }
                }
                else {
                    uint64_t bf = (m >> from) & 1, bt = op == PA_SWAP ? (m >> top) & 1 : 0;
                    nm &= ~((uint64_t)1 << top);
                    nm |= bf << top;
                    if (op == PA_SWAP) {
                        nm &= ~((uint64_t)1 << from);
                        nm |= bt << from;
                    }
                }
            }
            else {
                uint64_t taken = m & ~SAVED_BELOW(d - pop);
                if (taken && op != PA_STORE_FAST && op != PA_POP_TOP
                        && op != PA_STORE_FAST_STORE_FAST && op != PA_STORE_FAST_LOAD_FAST) {
                    *err = "saved locals: a comprehension's saved local taken by an instruction "
                           "that does not restore or drop it";
                    goto done;
                }
                nm = m & SAVED_BELOW(d - pop);
            }
            int32_t next = jump ? (int32_t)arg : pos + 1 + pa_opinfo_table[op].ncache;
            if (saved_flow(&w, u, next, d - pop + push, nm, err) < 0) {
                goto done;
            }
        }
    }
    rc = 0;
done:
    w_->nwork = 0;
    return rc;
}

static int
mark_saved_slots(pa_unit *u, const char **err)
{
    saved_walk w;
    int rc = saved_walk_run(u, &w, 1, err);
    saved_walk_free(&w);
    return rc;
}

int
pa_saved_slots_at(pa_unit *u, const uint32_t *next, PyObject **base, PyObject **top,
                  uint32_t *saved)
{
    const char *err;
    pa_unit *g = pa_compile_generic((PyCodeObject *)u->code_object, &err);
    if (g == NULL) {
        return -1;
    }
    saved_walk w;
    int pos = (int)(next - u->code), rc = -1;
    if (saved_walk_run(g, &w, 0, &err) == 0 && g->ncode == u->ncode && pos >= 0 && pos < g->ncode
            && w.depth[pos] == (int32_t)(top - base) && (w.saved[pos] >> 32) == 0) {
        *saved = (uint32_t)w.saved[pos];
        rc = 0;
    }
    saved_walk_free(&w);
    pa_unit_free(g);
    return rc;
}
#endif

pa_unit *
pa_compile_generic(PyCodeObject *co, const char **err)
{
    *err = NULL;
    if (!pa_decoder_ready) {
        *err = "the decoder for this CPython version is not loaded";
        return NULL;
    }
    PyObject *bytes;
    pa_reader r = {0};
    r.raw = code_units(co, &r.n, &bytes);
    if (r.raw == NULL) {
        *err = "no memory for co_code";
        return NULL;
    }
    int ncpy = r.n;
    pa_unit *u = NULL;
    int ninsn = 0;
    pa_insn *insn = read_all(&r, &ninsn, err);
    if (insn == NULL) {
        goto fail;
    }

    /* Pass 1: the size of pyadapt's code. */
    int ncode = 0;
    for (int i = 0; i < ninsn; i++) {
        if (insn[i].d->kind == PA_DK_OP) {
            ncode += 1 + pa_opinfo_table[insn[i].op].ncache;
        }
    }
    /* from_cpy holds 16-bit indices (2 bytes per CPython code unit of every unit, not 4):
     * larger code (generated tables, a module body of thousands of lines) runs in
     * CPython's loop */
    if (ncpy >= PA_MAX_CODE_UNITS || ncode >= PA_MAX_CODE_UNITS) {
        *err = "code too large (65,535 code units or more; pyadapt's offset map has 16 bits)";
        goto fail;
    }
    u = pa_unit_new(ncode, ncpy, count_exception_entries(co));
    if (u == NULL) {
        *err = "no memory for the unit";
        goto fail;
    }

    /* Pass 2: where each CPython offset lands (an instruction's EXTENDED_ARGs and caches
     * land on it, a dropped instruction on the next one). */
    int pos = 0;
    for (int i = 0; i < ninsn; i++) {
        for (int off = insn[i].start; off < insn[i].end; off++) {
            u->from_cpy[off] = (uint16_t)pos;
        }
        if (insn[i].d->kind == PA_DK_OP) {
            pos += 1 + pa_opinfo_table[insn[i].op].ncache;
        }
    }
    u->from_cpy[ncpy] = (uint16_t)ncode;

    /* Pass 3: instruction words, jump targets as absolute pyadapt indices. */
    pos = 0;
    int prev_pos = -1, prev_op = -1;
    uint32_t prev_arg = 0;
    for (int i = 0; i < ninsn; i++) {
        const pa_insn *in = &insn[i];
        if (in->d->kind != PA_DK_OP) {
            continue;
        }
        int op = in->op;
        uint32_t arg = in->arg;
        if (op == PA_LOAD_FAST_AND_CLEAR) {
            u->flags |= PA_UNIT_SAVES_NULL;
        }
        if (op == PA_CALL_KW && prev_op == PA_LOAD_CONST
                && prev_arg < (uint32_t)PyTuple_GET_SIZE(co->co_consts)
                && PyTuple_CheckExact(PyTuple_GET_ITEM(co->co_consts, prev_arg))) {
            /* 3.13's LOAD_CONST names; CALL_KW is 3.11's KW_NAMES; CALL (same sizes, same
             * stack after the pair, nothing between them can run code): the call is then
             * pyadapt's CALL, with its adaptive family */
            u->code[prev_pos] = PA_WORD(PA_KW_NAMES, prev_arg);
            op = PA_CALL;
        }
        prev_pos = pos;
        prev_op = op;
        prev_arg = arg;
        if (pa_opinfo_table[op].arg == PA_ARG_JUMP) {
            int64_t target = in->d->jump > 0 ? (int64_t)in->end + arg + in->d->jump_extra
                           : in->d->jump < 0 ? (int64_t)in->end - arg + in->d->jump_extra : -1;
            if (target < 0 || target > ncpy) {
                *err = "bad jump target";
                goto fail;
            }
            arg = u->from_cpy[target];
        }
        if (arg > PA_MAX_OPARG) {
            *err = "oparg too large";
            goto fail;
        }
        int size = 1 + pa_opinfo_table[op].ncache;
        u->code[pos] = PA_WORD(op, arg);
        for (int k = 0; k < size; k++) {
            u->to_cpy[pos + k] = (uint16_t)in->offset;
        }
        pos += size;
    }

    if (translate_exception_table(co, u, u->nexc, err) < 0) {
        goto fail;
    }
#if PA_STACK_TURNED_OVER
    if ((u->flags & PA_UNIT_SAVES_NULL) && mark_saved_slots(u, err) < 0) {
        goto fail;
    }
#endif
    free(insn);
    Py_XDECREF(bytes);
    return u;

fail:
    free(insn);
    pa_unit_free(u);
    Py_XDECREF(bytes);
    return NULL;
}

pa_unit *
pa_compile(PyCodeObject *co, const char **err)
{
    pa_unit *u = pa_compile_generic(co, err);
    if (u != NULL) {
        pa_unit_quicken(u);
    }
    return u;
}

/* configure() changed the mode or the warmup: the unit keeps no copy of its generic code
 * (4 bytes per code unit, for a rare event), so it is compiled again from the code object,
 * which gives the same words (the compiler reads the de-quickened co_code). */
int
pa_unit_requicken(pa_unit *u)
{
    const char *err;
    pa_unit *generic = pa_compile_generic((PyCodeObject *)u->code_object, &err);
    if (generic == NULL) {
        return -1;
    }
    if (generic->ncode != u->ncode) {      /* cannot happen: the same code object */
        pa_unit_free(generic);
        return -1;
    }
    memcpy(u->code, generic->code, sizeof(uint32_t) * (size_t)u->ncode);
    pa_unit_free(generic);
    pa_unit_quicken(u);
    return 0;
}
