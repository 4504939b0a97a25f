/* pa_opinfo.c -- the metadata of pyadapt's instruction set, expanded from the rows of
 * pa_opcodes.h: the main table (pa_opinfo_table: name, cache size, flags, family, oparg
 * kind), the family and adaptive-form maps, and what each row says about stack and oparg
 * (pa_stack_effect, the names of the oparg kinds).
 *
 * The loop and the specializer read pa_opinfo_table and the family maps; the stack effects
 * serve the tests, the disassembler and, through cffi, the decoders, so that a stack effect
 * is written once, in its row.  This file calls nothing else of the core.
 */
#include "pa_internal.h"
#include "pa_caches.h"

#define PA_STR_(x) #x
#define PA_STR(x) PA_STR_(x)
/* the ARG of each row that has one, for its specialized forms */
enum {
#define PA_OP0(NAME, ARG, ...) PA_ARG_OF_##NAME = PA_ARG_##ARG,
#define PA_OPC(NAME, CACHE, ARG, ...) PA_ARG_OF_##NAME = PA_ARG_##ARG,
#define PA_SPEC(NAME, ...)
    PA_OPCODE_LIST
#undef PA_OP0
#undef PA_OPC
#undef PA_SPEC
};
const pa_opinfo pa_opinfo_table[256] = {
#define PA_OP0(NAME, ARG, POP, PUSH, FLAGS) \
    [PA_##NAME] = {.name = #NAME, .ncache = 0, .flags = (FLAGS), .cache_type = NULL, \
                   .family = PA_##NAME, .arg = PA_ARG_##ARG},
#define PA_OPC(NAME, CACHE, ARG, POP, PUSH, FLAGS) \
    [PA_##NAME] = {.name = #NAME, .ncache = PA_CACHE_UNITS(CACHE), .flags = (FLAGS), \
                   .cache_type = #CACHE, .family = PA_##NAME, .arg = PA_ARG_##ARG},
#define PA_SPEC(NAME, FAMILY, FLAGS) \
    [PA_##NAME] = {.name = #NAME, .ncache = PA_CACHE_UNITS(PA_CACHE_OF_##FAMILY), \
                   .flags = (FLAGS), .cache_type = PA_STR(PA_CACHE_OF_##FAMILY), \
                   .family = PA_##FAMILY, .arg = PA_ARG_OF_##FAMILY},
    PA_OPCODE_LIST
#undef PA_OP0
#undef PA_OPC
#undef PA_SPEC
};
_Static_assert(PA_OPCODE_COUNT <= (1 << PA_OPCODE_BITS), "opcodes must fit the word's opcode field");
_Static_assert(sizeof(pa_opinfo) == 32, "the loop indexes pa_opinfo_table with a shift");

/* Every cache layout begins with the cache head (PA_SITE_COUNTER, PA_SITE_HITS). */
#define PA_OP0(NAME, ...)
#define PA_OPC(NAME, CACHE, ...) \
    _Static_assert(offsetof(CACHE, counter) == offsetof(pa_cache_head, counter) \
                   && offsetof(CACHE, hits) == offsetof(pa_cache_head, hits), \
                   #CACHE " must begin with the cache head");
#define PA_SPEC(NAME, ...)
PA_OPCODE_LIST
#undef PA_OP0
#undef PA_OPC
#undef PA_SPEC

uint8_t pa_family_of[256];
uint8_t pa_adaptive_of[256];

/* Fills pa_family_of and pa_adaptive_of from the table (once, at import: pa_core_init). */
void
pa_opinfo_init(void)
{
    for (int op = 0; op < PA_OPCODE_COUNT; op++) {
        pa_family_of[op] = (uint8_t)pa_opinfo_table[op].family;
        if (pa_opinfo_table[op].flags & PA_F_ADAPTIVE) {
            pa_adaptive_of[pa_opinfo_table[op].family] = (uint8_t)op;
        }
    }
}
const int pa_num_opcodes = PA_OPCODE_COUNT;

const char *const pa_fallback_names[PA_NUM_FALLBACKS] = {
    [PA_FB_NONE] = "none",
    [PA_FB_TRACING] = "tracing",
    [PA_FB_COMPILE_FAILED] = "compile_failed",
    [PA_FB_UNSUPPORTED] = "unsupported",
    [PA_FB_FOREIGN_EVAL_FRAME] = "foreign_eval_frame",
    [PA_FB_COLD] = "cold",
};


const char *const pa_arg_names[PA_NUM_ARG_KINDS] = {
    [PA_ARG_NONE] = "none",
    [PA_ARG_LOCAL] = "local",
    [PA_ARG_CONST] = "const",
    [PA_ARG_NAME] = "name",
    [PA_ARG_GLOBAL] = "global",
    [PA_ARG_JUMP] = "jump",
    [PA_ARG_COUNT] = "count",
    [PA_ARG_DEPTH] = "depth",
    [PA_ARG_COMPARE] = "compare",
    [PA_ARG_BINARY_OP] = "binary_op",
    [PA_ARG_IS] = "is",
    [PA_ARG_IN] = "in",
    [PA_ARG_RESUME] = "resume",
    [PA_ARG_AWAITABLE] = "awaitable",
    [PA_ARG_RERAISE] = "reraise",
    [PA_ARG_UNPACK_EX] = "unpack_ex",
    [PA_ARG_FUNCTION_FLAGS] = "function_flags",
    [PA_ARG_FORMAT] = "format",
    [PA_ARG_CALL_EX] = "call_ex",
    [PA_ARG_INTRINSIC_1] = "intrinsic_1",
    [PA_ARG_INTRINSIC_2] = "intrinsic_2",
    [PA_ARG_SUPER] = "super",
    [PA_ARG_LOCAL_PAIR] = "local_pair",
};

const pa_opstack pa_opstack_table[256] = {
#define PA_OP0(NAME, ARG, POP, PUSH, FLAGS) [PA_##NAME] = {#POP, #PUSH},
#define PA_OPC(NAME, CACHE, ARG, POP, PUSH, FLAGS) [PA_##NAME] = {#POP, #PUSH},
#define PA_SPEC(NAME, ...)
    PA_OPCODE_LIST
#undef PA_OP0
#undef PA_OPC
#undef PA_SPEC
};

/* The rows' POP and PUSH, evaluated; a specialized or adaptive form has its family's. */
void
pa_stack_items(int op, int oparg, int jump, int *pop, int *push)
{
    (void)oparg;
    (void)jump;
    switch (op) {
#define PA_OP0(NAME, ARG, POP, PUSH, FLAGS) \
    case PA_##NAME: *pop = (POP); *push = (PUSH); return;
#define PA_OPC(NAME, CACHE, ARG, POP, PUSH, FLAGS) \
    case PA_##NAME: *pop = (POP); *push = (PUSH); return;
#define PA_SPEC(NAME, FAMILY, FLAGS) \
    case PA_##NAME: pa_stack_items(PA_##FAMILY, oparg, jump, pop, push); return;
    PA_OPCODE_LIST
#undef PA_OP0
#undef PA_OPC
#undef PA_SPEC
    }
    *pop = *push = 0;
}

int
pa_stack_effect(int op, int oparg, int jump)
{
    int pop, push;
    pa_stack_items(op, oparg, jump != 0, &pop, &push);
    return push - pop;
}
