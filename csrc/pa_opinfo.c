/* pa_opinfo.c -- what the rows of pa_opcodes.h say about stack and oparg, as a table, a
 * function and names (the rows' main table, pa_opinfo_table, is built in pa_hook.c).
 *
 * Nothing in the loop calls these: they serve the tests, the disassembler and, through
 * cffi, the decoders of future CPython versions, so that a stack effect is written once, in
 * its row.
 */
#include "pa_internal.h"

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
static void
stack_items(int op, int oparg, int jump, int *pop, int *push)
{
    (void)oparg;
    (void)jump;
    switch (op) {
#define PA_OP0(NAME, ARG, POP, PUSH, FLAGS) \
    case PA_##NAME: *pop = (POP); *push = (PUSH); return;
#define PA_OPC(NAME, CACHE, ARG, POP, PUSH, FLAGS) \
    case PA_##NAME: *pop = (POP); *push = (PUSH); return;
#define PA_SPEC(NAME, FAMILY, FLAGS) \
    case PA_##NAME: stack_items(PA_##FAMILY, oparg, jump, pop, push); return;
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
    stack_items(op, oparg, jump != 0, &pop, &push);
    return push - pop;
}
