/* pa_cdef.h -- the C core's data as cffi sees it (this text is passed to ffibuilder.cdef).
 *
 * Plain C data only: no PyObject crosses this boundary.  Python reads the instruction
 * metadata and statistics, and writes compiled units, through these declarations.
 */

typedef struct {
    const char *name;        /* instruction name */
    int ncache;              /* inline cache units after the instruction word */
    int flags;               /* PA_F_* (csrc/pa_opcodes.h) */
    const char *cache_type;  /* name of the cache struct in pa_caches.h, or NULL */
    int family;              /* opcode of the family's generic instruction (itself if none) */
} pa_opinfo;

#define PA_F_JUMP 1
#define PA_F_NAME 2
#define PA_F_CONST 4
#define PA_F_LOCAL 8
#define PA_F_ADAPTIVE 16
#define PA_F_SUPER 32

#define PA_MAX_OPCODES 256
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

/* A compiled code object: pyadapt's code plus the maps back to CPython offsets. */
typedef struct {
    uint32_t *code;          /* ncode units: instruction words and inline caches */
    uint32_t *to_cpy;        /* ncode: CPython code-unit offset of each instruction */
    uint32_t *from_cpy;      /* ncpy + 1: pyadapt index for each CPython offset */
    pa_exc_entry *exc;       /* nexc entries, sorted by start */
    int32_t ncode;
    int32_t ncpy;
    int32_t nexc;
    int32_t flags;           /* PA_UNIT_* */
    int32_t reject_reason;   /* PA_FB_* when the compiler rejected the code, else 0 */
    int32_t pad_;
    uint64_t entries;        /* frames of this code started, resumed or inlined by the loop */
    uint32_t *base_code;     /* ncode: the code as compiled (generic forms), for re-quickening */
    void *registry_prev;     /* all attached units, for configure() and introspection */
    void *registry_next;
    void *code_object;       /* the code object this unit is attached to (borrowed) */
    const char *reject_detail; /* with reject_reason: what the compiler refused (static) */
} pa_unit;

#define PA_UNIT_JIT 1        /* always run under pyadapt (@pyadapt.jit) */

pa_unit *pa_unit_new(int ncode, int ncpy, int nexc);
void pa_unit_free(pa_unit *unit);
/* After the compiler filled `code`: keep it as the base and quicken per pa_config. */
int pa_unit_finish(pa_unit *unit);

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
} pa_decode_entry;
extern pa_decode_entry pa_decoder[256];
extern int pa_decoder_ready;

/* Reasons a frame ran in CPython's own loop instead of pyadapt's. */
#define PA_FB_NONE 0
#define PA_FB_TRACING 1
#define PA_FB_COMPILE_FAILED 2
#define PA_FB_UNSUPPORTED 3
#define PA_FB_FOREIGN_EVAL_FRAME 4   /* a call went through another PEP 523 hook, not inline */
#define PA_NUM_FALLBACKS 5
extern const char *const pa_fallback_names[5];

typedef struct {
    uint64_t instructions;   /* instructions executed by pyadapt's loop: counted only by a
                              * build with PYADAPT_COUNT_INSTRUCTIONS=1 (see
                              * pa_counts_instructions), else 0 */
    uint64_t frames;         /* frames started or resumed in pyadapt's loop */
    uint64_t inlined_calls;  /* Python-to-Python calls pushed without C recursion */
    uint64_t compiled;       /* code objects compiled */
    uint64_t fallbacks[5];   /* frames sent to CPython's loop (or another hook), by reason */
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
