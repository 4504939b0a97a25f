/* pa_cdef.h -- the C core's data as cffi sees it (this text is passed to ffibuilder.cdef).
 *
 * Plain C data only: no PyObject crosses this boundary.  Python reads the instruction
 * metadata and statistics, and writes compiled units, through these declarations.
 */

/* One row of csrc/pa_opcodes.h, as data. */
typedef struct {
    const char *name;        /* instruction name */
    int ncache;              /* inline cache units after the instruction word */
    int flags;               /* PA_F_* */
    const char *cache_type;  /* name of the cache struct in pa_caches.h, or NULL */
    int family;              /* opcode of the family's generic instruction (itself if none) */
    int arg;                 /* PA_ARG_*: what the oparg is (a specialized form: its family's) */
} pa_opinfo;                 /* 32 bytes: the loop indexes it (kept so, pa_hook.c) */

/* The stack items each row takes and puts back, as the row writes them (C expressions of
 * oparg and jump); NULL for a specialized or adaptive form, which has its family's. */
typedef struct {
    const char *pop;
    const char *push;
} pa_opstack;
extern const pa_opstack pa_opstack_table[256];

#define PA_F_ADAPTIVE 16     /* the adaptive form of its family: counts down, then specializes */
#define PA_F_SUPER 32        /* superinstruction: also executes the next instruction word */

/* What an oparg is (the ARG column of pa_opcodes.h; pa_arg_names gives the names). */
#define PA_ARG_NONE 0
#define PA_ARG_LOCAL 1
#define PA_ARG_CONST 2
#define PA_ARG_NAME 3
#define PA_ARG_GLOBAL 4
#define PA_ARG_JUMP 5
#define PA_ARG_COUNT 6
#define PA_ARG_DEPTH 7
#define PA_ARG_COMPARE 8
#define PA_ARG_BINARY_OP 9
#define PA_ARG_IS 10
#define PA_ARG_IN 11
#define PA_ARG_RESUME 12
#define PA_ARG_AWAITABLE 13
#define PA_ARG_RERAISE 14
#define PA_ARG_UNPACK_EX 15
#define PA_ARG_FUNCTION_FLAGS 16
#define PA_ARG_FORMAT 17
#define PA_ARG_CALL_EX 18
#define PA_ARG_INTRINSIC_1 19
#define PA_ARG_INTRINSIC_2 20
#define PA_ARG_SUPER 21
#define PA_ARG_LOCAL_PAIR 22
#define PA_NUM_ARG_KINDS 23
/* The intrinsics of CALL_INTRINSIC_1 and _2 (CPython 3.12's numbering); those pyadapt does
 * not run (PEP 695's typing intrinsics) are past the decoder's arg_limit: the code object
 * runs natively. */
#define PA_INTRINSIC1_PRINT 1
#define PA_INTRINSIC1_IMPORT_STAR 2
#define PA_INTRINSIC1_STOPITERATION_ERROR 3
#define PA_INTRINSIC1_ASYNC_GEN_WRAP 4
#define PA_INTRINSIC1_UNARY_POSITIVE 5
#define PA_INTRINSIC1_LIST_TO_TUPLE 6
#define PA_INTRINSIC1_COUNT 7
#define PA_INTRINSIC2_PREP_RERAISE_STAR 1
#define PA_INTRINSIC2_COUNT 2
extern const char *const pa_arg_names[23];
/* Net stack effect of instruction `op` with `oparg`, the jump taken (jump=1) or not. */
int pa_stack_effect(int op, int oparg, int jump);

#define PA_MAX_OPCODES 256

/* The instruction word and the counter: field widths (csrc/pa_word.h draws the layouts and
 * is the only C code that encodes or decodes them; pyadapt/_word.py the only Python). */
#define PA_OPCODE_BITS 8             /* word: opcode in the low bits */
#define PA_OPARG_BITS 24             /*       oparg in the rest (no EXTENDED_ARG) */
#define PA_COUNTER_VALUE_BITS 20     /* counter: countdown in the low bits */
#define PA_COUNTER_BACKOFF_BITS 4    /*          backoff exponent above it */
#define PA_COUNTER_KIND_BITS 8       /*          kind of the last failure at the top */
#define PA_TYPE_SLOT_INDEX_BITS 6    /* a polymorphic instance-value site's extra type: */
                                     /*   values index in the high bits, type version below */
extern const pa_opinfo pa_opinfo_table[256];
extern const int pa_num_opcodes;

/* One exception-table entry, in pyadapt unit indices. */
typedef struct {
    int32_t start;           /* first unit covered */
    int32_t end;             /* first unit not covered */
    int32_t handler;         /* unit index of the handler */
    int32_t depth;           /* stack depth to unwind to */
    int32_t lasti;           /* push f_lasti before the exception */
    int32_t pad_;
} pa_exc_entry;

/* What the specializer saw at one site (csrc/pa_sites.c), kept off the hot path: written
 * only when an adaptive instruction tries to specialize (and when a polymorphic attribute
 * form meets a new type), never by a handler's fast path or a guard; read by --stats-json
 * and the report.  Type names are interned copies that live as long as the process. */
#define PA_SEEN_MAX 4
typedef struct {
    const char *types[2];    /* the operands' types: (lhs, rhs), (owner, descriptor's type),
                                (callable's type, the class called), (container, index), ...;
                                NULL where the family has no such operand */
    const char *detail;      /* static text: the callable's or the attribute's kind, or NULL */
    int32_t outcome;         /* the opcode it specialized to, or -(failure kind) */
    uint32_t count;          /* attempts that saw exactly this */
} pa_site_seen;

typedef struct {
    int32_t index;           /* the instruction's index in its unit's code */
    uint32_t attempts;       /* specialization attempts (and polymorphic type additions) */
    uint32_t deopts;         /* deopts of the site, counted at its next attempt */
    uint32_t nseen;          /* entries of seen[] in use */
    uint32_t unseen;         /* attempts whose observation found no free entry */
    int32_t pad_;
    pa_site_seen seen[4];
} pa_site_record;     /* as _core.site_records gives the records to Python */

/* A site record as a unit keeps it: pa_site_record's fields with its first observation
 * inline and the others (rare: 5% of pytest's sites have a second) in `more`, allocated at
 * the second; 64 bytes against pa_site_record's 152. */
typedef struct {
    int32_t index;
    uint32_t attempts;
    uint32_t deopts;
    uint32_t nseen;
    uint32_t unseen;
    int32_t pad_;
    pa_site_seen *more;      /* seen[1 .. PA_SEEN_MAX - 1], or NULL */
    pa_site_seen first;      /* seen[0] */
} pa_site_slot;

/* Code units (CPython's or pyadapt's) from which on a code object is not compiled. */
#define PA_MAX_CODE_UNITS 65535

/* A compiled code object: pyadapt's code plus the maps back to CPython offsets.  The fields
 * a frame's start reads and writes come first, in the first cache line of a unit (units are
 * allocated at a line's start: pa_units.c). */
typedef struct {
    uint32_t *code;          /* ncode units: instruction words and inline caches */
    uint16_t *to_cpy;        /* ncode: CPython code-unit offset of each instruction (16 bits,
                                as from_cpy) */
    uint16_t *from_cpy;      /* ncpy + 1: pyadapt index for each CPython offset (16 bits:
                                code of PA_MAX_CODE_UNITS or more units is not compiled) */
    uint64_t entries;        /* frames of this code started, resumed or inlined by the loop */
    int32_t flags;           /* PA_UNIT_* */
    int32_t reject_reason;   /* PA_FB_* when the compiler rejected the code, else 0;
                                PA_FB_COLD: not compiled yet (code and maps NULL) */
    pa_exc_entry *exc;       /* nexc entries, sorted by start */
    int32_t ncode;
    int32_t ncpy;
    int32_t nexc;
    int32_t cold_entries;    /* frames of this code the hook left to CPython's loop as cold */
    void *registry_prev;     /* all attached units, for configure() and introspection */
    void *registry_next;
    void *code_object;       /* the code object this unit is attached to (borrowed) */
    const char *reject_detail; /* with reject_reason: what the compiler refused (static) */
    pa_site_slot *site_records; /* what its sites' specializer saw, sorted by index (read as
                                   pa_site_record[] through _core.site_records) */
    int32_t nsite_records;
    int32_t site_records_cap;
    uint32_t func_version;   /* the version of every function of this code made without
                                defaults (0 until the specializer first asks): see
                                pa_func_version */
    int32_t pad_;
} pa_unit;

#define PA_UNIT_JIT 1        /* always run under pyadapt (@pyadapt.jit) */
#define PA_UNIT_SAVES_NULL 2 /* has LOAD_FAST_AND_CLEAR: a NULL on its value stack may be a
                                saved local, not a call's (PA_STACK_TO_CPYTHON) */
#define PA_UNIT_CACHED 4     /* an entry of the return or resume cache may name it: freeing it
                                empties those caches (pa_internal.h) */

pa_unit *pa_unit_new(int ncode, int ncpy, int nexc);
void pa_unit_free(pa_unit *unit);

/* The decoder of the running CPython version (csrc/pa_compile.c): for each CPython opcode,
 * how it lowers to pyadapt.  pyadapt/_compiler.py fills it at import from that version's
 * own `opcode` module and then sets pa_decoder_ready. */
#define PA_DK_UNKNOWN 0          /* no pyadapt counterpart: the compiler rejects the code */
#define PA_DK_OP 1               /* lowers to pyadapt instruction pa_op */
#define PA_DK_DROP 2             /* vanishes: the next instruction does its work (PRECALL) */
#define PA_DK_EXTENDED_ARG 3     /* prefix: shifts the next oparg */
#define PA_DK_CACHE 4            /* an inline cache entry (never decoded as an instruction) */
typedef struct {
    uint8_t kind;            /* PA_DK_* */
    uint8_t pa_op;           /* PA_DK_OP: the pyadapt opcode */
    uint8_t ncache;          /* CPython inline cache entries after the opcode */
    int8_t jump;             /* relative jump: +1 forward, -1 backward, 0 none */
    uint8_t alt_op;          /* if not 0: the pyadapt opcode when bit 0 of the oparg is set
                              * (3.12's LOAD_ATTR: a method load is LOAD_METHOD) */
    uint8_t arg_shift;       /* pyadapt's oparg is CPython's shifted right by this many bits
                              * (after alt_op read bit 0; 3.12's COMPARE_OP: 4) */
    int8_t jump_extra;       /* code units added to a jump's target (3.12's FOR_ITER jumps
                              * past the END_FOR its exhaustion target names) */
    uint8_t arg_limit;       /* if not 0: an oparg (after the shift) at or past it has no
                              * pyadapt meaning, and the compiler rejects the code object */
} pa_decode_entry;
extern pa_decode_entry pa_decoder[256];
extern int pa_decoder_ready;

/* Reasons a frame ran in CPython's own loop instead of pyadapt's. */
#define PA_FB_NONE 0
#define PA_FB_TRACING 1
#define PA_FB_COMPILE_FAILED 2
#define PA_FB_UNSUPPORTED 3
#define PA_FB_FOREIGN_EVAL_FRAME 4   /* a call went through another PEP 523 hook, not inline */
#define PA_FB_COLD 5                 /* whole-process mode: not entered compile_after times yet */
#define PA_NUM_FALLBACKS 6
extern const char *const pa_fallback_names[6];

typedef struct {
    uint64_t instructions;   /* instructions executed by pyadapt's loop: counted only by a
                              * build with PYADAPT_COUNT_INSTRUCTIONS=1 (see
                              * pa_counts_instructions), else 0 */
    uint64_t frames;         /* frames started or resumed in pyadapt's loop */
    uint64_t inlined_calls;  /* Python-to-Python calls pushed without C recursion */
    uint64_t compiled;       /* code objects compiled */
    uint64_t fallbacks[6];   /* frames sent to CPython's loop (or another hook), by reason */
} pa_stats_t;
extern pa_stats_t pa_stats;

/* Per opcode: what the specializer and the specialized forms did. */
#define PA_NUM_FAIL_KINDS 40   /* the two array sizes below repeat it (cffi reads literals) */
typedef struct {
    uint64_t hits;           /* specialized form: hits of units already freed (live units
                                keep theirs per site; pyadapt.stats() adds them up) */
    uint64_t misses;         /* specialized form: a guard failed, the generic path ran */
    uint64_t deopts;         /* specialized form: sent back to the adaptive form */
    uint64_t specialized;    /* family: successful specializations */
    uint64_t failures;       /* family: failed attempts (then backoff) */
    uint64_t deferred;       /* adaptive form: executions while counting down */
    uint64_t failure_kinds[40];
} pa_opstats;
extern pa_opstats pa_op_stats[256];
extern const char *const pa_fail_names[40];

/* Configuration, read by the compiler and the specializer.  Changing it affects code
 * compiled afterwards (and instructions that specialize afterwards). */
typedef struct {
    int specialize;          /* 0: generic mode -- no adaptive forms, no superinstructions */
    uint32_t warmup;         /* executions of an adaptive instruction before it specializes */
    uint32_t miss_budget;    /* guard failures a specialized instruction takes before deopt */
    uint32_t max_backoff;    /* cap of the exponential backoff exponent after failures */
    uint32_t compile_after;  /* whole-process mode (enable()): frames of a code object the hook
                                leaves to CPython's loop before compiling it; 0: compile at the
                                first.  Not applied inside run() or to @jit code. */
    uint32_t record_misses;  /* 1: each miss of a specialized form records the operands'
                                types in its site record (what --stats-json and the report
                                show); set by the launcher for --stats, --stats-json and
                                --report, off otherwise (a miss-heavy site pays for it) */
    uint32_t record_sites;   /* 1: each specialization attempt records, per site, the
                                operands' types and what the specializer made of them (the
                                site records stats(), --stats, --stats-json and the report
                                read); 0: no site records at all (the launcher without
                                those outputs, PYADAPT=1): a whole program's attempts cost
                                their specialization only */
} pa_config_t;
extern pa_config_t pa_config;

/* Dynamic counts of adjacent instruction pairs, (first, second) by generic opcode: filled
 * only by a build with PYADAPT_PAIR_STATS=1 (tools/pair_counts.py), to choose
 * superinstructions.  pa_pair_stats_enabled says which build this is. */
extern uint64_t pa_pair_counts[256][256];
extern const int pa_pair_stats_enabled;

/* 1 in a build with PYADAPT_COUNT_INSTRUCTIONS=1, whose loop counts every instruction it
 * dispatches into pa_stats.instructions; 0 in a normal build, where counting would cost
 * 1-3% of all work (a memory increment per dispatch): stats()["instructions"] is None. */
extern const int pa_counts_instructions;

int pa_core_init(void);
