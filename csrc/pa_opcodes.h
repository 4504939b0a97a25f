/* pa_opcodes.h -- pyadapt's instruction set, defined once.
 *
 * Every consumer (the enum in pa_internal.h, the dispatch table in pa_eval.c, the exported
 * metadata table pa_opinfo_table that the compiler and the disassembler read, the stack
 * effects of pa_opinfo.c) expands this list with its own definitions of three macros:
 *
 *   PA_OP0(NAME, ARG, POP, PUSH, FLAGS)         an instruction with no inline cache
 *   PA_OPC(NAME, CACHE, ARG, POP, PUSH, FLAGS)  the generic instruction of a family, followed
 *                                               by the cache struct CACHE (pa_caches.h; it
 *                                               begins with the cache head)
 *   PA_SPEC(NAME, FAMILY, FLAGS)                an adaptive (PA_F_ADAPTIVE) or specialized form
 *                                               of FAMILY: the family's oparg, stack effect and
 *                                               cache (PA_CACHE_OF_<FAMILY> below)
 *
 * ARG says what the oparg is, as data (PA_ARG_<ARG>, pa_cdef.h): NONE (no oparg), LOCAL (a
 * localsplus index: fast, cell or free variable), CONST, NAME (co_names), GLOBAL (co_names
 * index << 1, bit 0: push NULL first), JUMP (an absolute unit index into the unit's code),
 * COUNT (a number of items or arguments), DEPTH (a stack position, 1 = TOS), COMPARE
 * (Py_LT..Py_GE), BINARY_OP (NB_*), IS and IN (1: negated), RESUME and AWAITABLE (where it
 * stands), RERAISE (1: f_lasti is under the exception), UNPACK_EX (before | after << 8),
 * FUNCTION_FLAGS (what MAKE_FUNCTION pops: defaults, kwdefaults, annotations, closure),
 * FORMAT (conversion | 4 with a format spec), CALL_EX (1: with **kwargs), INTRINSIC_1 and
 * INTRINSIC_2 (which intrinsic: PA_INTRINSIC1_*, PA_INTRINSIC2_* in pa_cdef.h), SUPER (name
 * index << 1, bit 0: super() was called with two arguments), LOCAL_PAIR (two localsplus
 * indices, the first in bits 4-7, the second in bits 0-3: 3.13's fused loads and stores).
 *
 * POP and PUSH are the items the instruction takes from the stack and puts back, as C
 * expressions of `oparg` and, for an instruction whose stack depends on whether it branches,
 * `jump` (1 when the jump is taken).  Items it reaches under the top and leaves in place
 * (COPY, SWAP, LIST_APPEND's list) count in both.  pa_stack_effect() evaluates them;
 * tests/test_opcodes.py checks each row against the running CPython's dis.stack_effect, through
 * its decoder's rewriting of opargs (3.11, 3.12 and 3.13).
 *
 * The instruction word, oparg and counter are encoded and decoded in pa_word.h.
 */

/* FLAGS: PA_F_ADAPTIVE, PA_F_SUPER (pa_cdef.h). */

/* The cache layout of each family, for its PA_SPEC forms. */
#define PA_CACHE_OF_LOAD_ATTR pa_cache_load_attr
#define PA_CACHE_OF_LOAD_METHOD pa_cache_load_method
#define PA_CACHE_OF_STORE_ATTR pa_cache_store_attr
#define PA_CACHE_OF_LOAD_GLOBAL pa_cache_load_global
#define PA_CACHE_OF_BINARY_OP pa_cache_binary_op
#define PA_CACHE_OF_COMPARE_OP pa_cache_compare_op
#define PA_CACHE_OF_BINARY_SUBSCR pa_cache_binary_subscr
#define PA_CACHE_OF_STORE_SUBSCR pa_cache_store_subscr
#define PA_CACHE_OF_UNPACK_SEQUENCE pa_cache_unpack_sequence
#define PA_CACHE_OF_CONTAINS_OP pa_cache_contains_op
#define PA_CACHE_OF_TO_BOOL pa_cache_to_bool
#define PA_CACHE_OF_CALL pa_cache_call
#define PA_CACHE_OF_FOR_ITER pa_cache_for_iter
#define PA_CACHE_OF_SEND pa_cache_send
#define PA_CACHE_OF_LOAD_SUPER_ATTR pa_cache_load_super
#define PA_CACHE_OF_LOAD_SUPER_METHOD pa_cache_load_super

#define PA_OPCODE_LIST \
    PA_OP0(NOP, NONE, 0, 0, 0)                                   /* nothing */ \
    PA_OP0(RESUME, RESUME, 0, 0, 0)                              /* function start / after yield; checks the eval breaker if oparg < 2 */ \
    PA_OP0(POP_TOP, NONE, 1, 0, 0)                               /* pop and discard TOS */ \
    PA_OP0(PUSH_NULL, NONE, 0, 1, 0)                             /* push NULL (callable slot marker) */ \
    PA_OP0(UNARY_POSITIVE, NONE, 1, 1, 0)                        /* TOS = +TOS */ \
    PA_OP0(UNARY_NEGATIVE, NONE, 1, 1, 0)                        /* TOS = -TOS */ \
    PA_OP0(UNARY_NOT, NONE, 1, 1, 0)                             /* TOS = not TOS */ \
    PA_OP0(UNARY_INVERT, NONE, 1, 1, 0)                          /* TOS = ~TOS */ \
    PA_OPC(BINARY_SUBSCR, pa_cache_binary_subscr, NONE, 2, 1, 0) /* TOS = TOS1[TOS] */ \
    PA_OP0(GET_LEN, NONE, 1, 2, 0)                               /* push len(TOS) */ \
    PA_OP0(MATCH_MAPPING, NONE, 1, 2, 0)                         /* push whether TOS is a mapping */ \
    PA_OP0(MATCH_SEQUENCE, NONE, 1, 2, 0)                        /* push whether TOS is a sequence */ \
    PA_OP0(MATCH_KEYS, NONE, 2, 3, 0)                            /* push values of keys TOS in mapping TOS1, or None */ \
    PA_OP0(PUSH_EXC_INFO, NONE, 1, 2, 0)                         /* push the handled exception, make TOS the current one */ \
    PA_OP0(CHECK_EXC_MATCH, NONE, 2, 2, 0)                       /* push whether exception TOS1 matches type TOS */ \
    PA_OP0(CHECK_EG_MATCH, NONE, 2, 2, 0)                        /* except*: split exception group TOS1 by type TOS */ \
    PA_OP0(WITH_EXCEPT_START, NONE, 4, 5, 0)                     /* call __exit__ with the exception at TOS */ \
    PA_OP0(GET_AITER, NONE, 1, 1, 0)                             /* TOS = TOS.__aiter__() */ \
    PA_OP0(GET_ANEXT, NONE, 1, 2, 0)                             /* push awaitable of TOS.__anext__() */ \
    PA_OP0(BEFORE_ASYNC_WITH, NONE, 1, 2, 0)                     /* push __aexit__ and the result of __aenter__() */ \
    PA_OP0(BEFORE_WITH, NONE, 1, 2, 0)                           /* push __exit__ and the result of __enter__() */ \
    PA_OP0(END_ASYNC_FOR, NONE, 2, 0, 0)                         /* end async for on StopAsyncIteration, else re-raise */ \
    PA_OPC(STORE_SUBSCR, pa_cache_store_subscr, NONE, 3, 0, 0)   /* TOS1[TOS] = TOS2 */ \
    PA_OP0(DELETE_SUBSCR, NONE, 2, 0, 0)                         /* del TOS1[TOS] */ \
    PA_OP0(GET_ITER, NONE, 1, 1, 0)                              /* TOS = iter(TOS) */ \
    PA_OP0(GET_YIELD_FROM_ITER, NONE, 1, 1, 0)                   /* iterator for yield from */ \
    PA_OP0(PRINT_EXPR, NONE, 1, 0, 0)                            /* sys.displayhook(TOS) */ \
    PA_OP0(LOAD_BUILD_CLASS, NONE, 0, 1, 0)                      /* push builtins.__build_class__ */ \
    PA_OP0(LOAD_ASSERTION_ERROR, NONE, 0, 1, 0)                  /* push AssertionError */ \
    PA_OP0(RETURN_GENERATOR, NONE, 0, 0, 0)                      /* never executed: generator creation runs natively */ \
    PA_OP0(LIST_TO_TUPLE, NONE, 1, 1, 0)                         /* TOS = tuple(TOS) */ \
    PA_OP0(RETURN_VALUE, NONE, 1, 0, 0)                          /* return TOS */ \
    PA_OP0(IMPORT_STAR, NONE, 1, 0, 0)                           /* from TOS import * */ \
    PA_OP0(SETUP_ANNOTATIONS, NONE, 0, 0, 0)                     /* ensure __annotations__ in locals */ \
    PA_OP0(YIELD_VALUE, NONE, 1, 1, 0)                           /* yield TOS (oparg, not shown: PA_YIELD_FROM, PA_YIELD_SAVED) */ \
    PA_OP0(ASYNC_GEN_WRAP, NONE, 1, 1, 0)                        /* wrap TOS for an async generator yield */ \
    PA_OP0(PREP_RERAISE_STAR, NONE, 2, 1, 0)                     /* combine except* results */ \
    PA_OP0(POP_EXCEPT, NONE, 1, 0, 0)                            /* restore the previously handled exception */ \
    PA_OP0(STORE_NAME, NAME, 1, 0, 0)                            /* locals[name] = TOS */ \
    PA_OP0(DELETE_NAME, NAME, 0, 0, 0)                           /* del locals[name] */ \
    PA_OPC(UNPACK_SEQUENCE, pa_cache_unpack_sequence, COUNT, 1, oparg, 0) /* unpack TOS into oparg values */ \
    PA_OPC(FOR_ITER, pa_cache_for_iter, JUMP, 1, jump ? 0 : 2, 0) /* push next(TOS) or pop and jump to oparg */ \
    PA_OP0(UNPACK_EX, UNPACK_EX, 1, (oparg & 0xFF) + 1 + (oparg >> 8), 0) /* starred unpack of TOS */ \
    PA_OPC(STORE_ATTR, pa_cache_store_attr, NAME, 2, 0, 0)       /* TOS.name = TOS1 */ \
    PA_OP0(DELETE_ATTR, NAME, 1, 0, 0)                           /* del TOS.name */ \
    PA_OP0(STORE_GLOBAL, NAME, 1, 0, 0)                          /* globals[name] = TOS */ \
    PA_OP0(DELETE_GLOBAL, NAME, 0, 0, 0)                         /* del globals[name] */ \
    PA_OP0(SWAP, DEPTH, oparg, oparg, 0)                         /* swap TOS and the oparg-th item */ \
    PA_OP0(LOAD_CONST, CONST, 0, 1, 0)                           /* push co_consts[oparg] */ \
    PA_OP0(LOAD_NAME, NAME, 0, 1, 0)                             /* push locals/globals/builtins[name] */ \
    PA_OP0(BUILD_TUPLE, COUNT, oparg, 1, 0)                      /* push tuple of oparg items */ \
    PA_OP0(BUILD_LIST, COUNT, oparg, 1, 0)                       /* push list of oparg items */ \
    PA_OP0(BUILD_SET, COUNT, oparg, 1, 0)                        /* push set of oparg items */ \
    PA_OP0(BUILD_MAP, COUNT, 2 * oparg, 1, 0)                    /* push dict of oparg pairs */ \
    PA_OPC(LOAD_ATTR, pa_cache_load_attr, NAME, 1, 1, 0)         /* TOS = TOS.name */ \
    PA_OPC(COMPARE_OP, pa_cache_compare_op, COMPARE, 2, 1, 0)    /* TOS = TOS1 <op> TOS */ \
    PA_OP0(IMPORT_NAME, NAME, 2, 1, 0)                           /* import name (fromlist TOS, level TOS1) */ \
    PA_OP0(IMPORT_FROM, NAME, 1, 2, 0)                           /* push TOS.name for from-import */ \
    PA_OP0(JUMP, JUMP, 0, 0, 0)                                  /* jump to oparg; backward jumps check the eval breaker */ \
    PA_OP0(JUMP_NO_INTERRUPT, JUMP, 0, 0, 0)                     /* jump to oparg without an eval breaker check */ \
    PA_OP0(JUMP_IF_FALSE_OR_POP, JUMP, 1, jump ? 1 : 0, 0)       /* jump if TOS false (keep it), else pop */ \
    PA_OP0(JUMP_IF_TRUE_OR_POP, JUMP, 1, jump ? 1 : 0, 0)        /* jump if TOS true (keep it), else pop */ \
    PA_OP0(POP_JUMP_IF_FALSE, JUMP, 1, 0, 0)                     /* pop TOS, jump if false */ \
    PA_OP0(POP_JUMP_IF_TRUE, JUMP, 1, 0, 0)                      /* pop TOS, jump if true */ \
    PA_OP0(POP_JUMP_IF_NONE, JUMP, 1, 0, 0)                      /* pop TOS, jump if None */ \
    PA_OP0(POP_JUMP_IF_NOT_NONE, JUMP, 1, 0, 0)                  /* pop TOS, jump if not None */ \
    PA_OPC(LOAD_GLOBAL, pa_cache_load_global, GLOBAL, 0, (oparg & 1) + 1, 0) /* push global co_names[oparg>>1] (and NULL first if oparg&1) */ \
    PA_OP0(IS_OP, IS, 2, 1, 0)                                   /* TOS = (TOS1 is TOS) ^ oparg */ \
    PA_OPC(CONTAINS_OP, pa_cache_contains_op, IN, 2, 1, 0)       /* TOS = (TOS1 in TOS) ^ oparg */ \
    PA_OP0(RERAISE, RERAISE, 1, 0, 0)                            /* re-raise TOS (oparg: restore f_lasti from the stack) */ \
    PA_OP0(COPY, DEPTH, oparg, oparg + 1, 0)                     /* push the oparg-th item */ \
    PA_OPC(BINARY_OP, pa_cache_binary_op, BINARY_OP, 2, 1, 0)    /* TOS = TOS1 <op oparg> TOS */ \
    PA_OPC(SEND, pa_cache_send, JUMP, 2, jump ? 1 : 2, 0)        /* send TOS into TOS1; on return jump to oparg */ \
    PA_OP0(LOAD_FAST, LOCAL, 0, 1, 0)                            /* push local oparg */ \
    PA_OP0(STORE_FAST, LOCAL, 1, 0, 0)                           /* local oparg = TOS */ \
    PA_OP0(DELETE_FAST, LOCAL, 0, 0, 0)                          /* del local oparg */ \
    PA_OP0(RAISE_VARARGS, COUNT, oparg, 0, 0)                    /* raise (oparg 0..2 operands) */ \
    PA_OP0(GET_AWAITABLE, AWAITABLE, 1, 1, 0)                    /* TOS = awaitable(TOS) */ \
    PA_OP0(MAKE_FUNCTION, FUNCTION_FLAGS, 1 + __builtin_popcount(oparg & 0xF), 1, 0) /* make a function from code TOS (+ extras by oparg bits) */ \
    PA_OP0(BUILD_SLICE, COUNT, oparg == 3 ? 3 : 2, 1, 0)         /* push slice of 2 or 3 items */ \
    PA_OP0(MAKE_CELL, LOCAL, 0, 0, 0)                            /* local oparg = cell(local oparg) */ \
    PA_OP0(LOAD_CLOSURE, LOCAL, 0, 1, 0)                         /* push cell oparg */ \
    PA_OP0(LOAD_DEREF, LOCAL, 0, 1, 0)                           /* push contents of cell oparg */ \
    PA_OP0(STORE_DEREF, LOCAL, 1, 0, 0)                          /* cell oparg contents = TOS */ \
    PA_OP0(DELETE_DEREF, LOCAL, 0, 0, 0)                         /* empty cell oparg */ \
    PA_OP0(CALL_FUNCTION_EX, CALL_EX, 3 + (oparg & 1), 1, 0)     /* call with *args (and **kwargs if oparg&1) */ \
    PA_OP0(LIST_APPEND, DEPTH, oparg + 1, oparg, 0)              /* list at oparg .append(TOS) */ \
    PA_OP0(SET_ADD, DEPTH, oparg + 1, oparg, 0)                  /* set at oparg .add(TOS) */ \
    PA_OP0(MAP_ADD, DEPTH, oparg + 2, oparg, 0)                  /* dict at oparg [TOS1] = TOS */ \
    PA_OP0(LOAD_CLASSDEREF, LOCAL, 0, 1, 0)                      /* class body: locals or cell oparg */ \
    PA_OP0(COPY_FREE_VARS, COUNT, 0, 0, 0)                       /* copy oparg closure cells into the frame */ \
    PA_OP0(MATCH_CLASS, COUNT, 3, 1, 0)                          /* class pattern: TOS = attrs tuple or None */ \
    PA_OP0(FORMAT_VALUE, FORMAT, 1 + ((oparg & 4) != 0), 1, 0)   /* f-string formatting */ \
    PA_OP0(BUILD_CONST_KEY_MAP, COUNT, oparg + 1, 1, 0)          /* dict from const key tuple TOS and oparg values */ \
    PA_OP0(BUILD_STRING, COUNT, oparg, 1, 0)                     /* concatenate oparg strings */ \
    PA_OPC(LOAD_METHOD, pa_cache_load_method, NAME, 1, 2, 0)     /* push method and self, or NULL and attribute */ \
    PA_OP0(LIST_EXTEND, DEPTH, oparg + 1, oparg, 0)              /* list at oparg .extend(TOS) */ \
    PA_OP0(SET_UPDATE, DEPTH, oparg + 1, oparg, 0)               /* set at oparg .update(TOS) */ \
    PA_OP0(DICT_MERGE, DEPTH, oparg + 1, oparg, 0)               /* dict at oparg merge TOS (call keywords) */ \
    PA_OP0(DICT_UPDATE, DEPTH, oparg + 1, oparg, 0)              /* dict at oparg .update(TOS) */ \
    PA_OPC(CALL, pa_cache_call, COUNT, oparg + 2, 1, 0)          /* CPython's PRECALL+CALL: call with oparg arguments */ \
    PA_OP0(KW_NAMES, CONST, 0, 0, 0)                             /* keyword names co_consts[oparg] for the next CALL */ \
    \
    /* ---- quickening: superinstructions (adaptive mode only) ---- */ \
    PA_OP0(LOAD_FAST__LOAD_FAST, LOCAL, 0, 2, PA_F_SUPER)        /* LOAD_FAST oparg; LOAD_FAST next */ \
    PA_OP0(LOAD_FAST__LOAD_CONST, LOCAL, 0, 2, PA_F_SUPER)       /* LOAD_FAST oparg; LOAD_CONST next */ \
    PA_OP0(LOAD_CONST__LOAD_FAST, CONST, 0, 2, PA_F_SUPER)       /* LOAD_CONST oparg; LOAD_FAST next */ \
    PA_OP0(STORE_FAST__LOAD_FAST, LOCAL, 1, 1, PA_F_SUPER)       /* STORE_FAST oparg; LOAD_FAST next */ \
    PA_OP0(STORE_FAST__STORE_FAST, LOCAL, 2, 0, PA_F_SUPER)      /* STORE_FAST oparg; STORE_FAST next */ \
    \
    /* ---- adaptive and specialized forms, by family ---- */ \
    PA_SPEC(LOAD_ATTR_ADAPTIVE, LOAD_ATTR, PA_F_ADAPTIVE)        \
    PA_SPEC(LOAD_ATTR_INSTANCE_VALUE, LOAD_ATTR, 0)              /* value at index in the inline values */ \
    PA_SPEC(LOAD_ATTR_WITH_HINT, LOAD_ATTR, 0)                   /* instance __dict__ entry at hint */ \
    PA_SPEC(LOAD_ATTR_SLOT, LOAD_ATTR, 0)                        /* __slots__ member at offset */ \
    PA_SPEC(LOAD_ATTR_MODULE, LOAD_ATTR, 0)                      /* module __dict__ entry at index */ \
    PA_SPEC(LOAD_ATTR_CLASS, LOAD_ATTR, 0)                       /* class attribute (cached object) */ \
    PA_SPEC(LOAD_ATTR_PROPERTY, LOAD_ATTR, 0)                    /* calls a Python property getter inline */ \
    PA_SPEC(LOAD_ATTR_GETATTRIBUTE_OVERRIDDEN, LOAD_ATTR, 0)     /* calls a Python __getattribute__ inline */ \
    PA_SPEC(LOAD_ATTR_NONDESCRIPTOR_WITH_VALUES, LOAD_ATTR, 0)  /* plain class attribute through an instance */ \
    PA_SPEC(LOAD_ATTR_NONDESCRIPTOR_NO_DICT, LOAD_ATTR, 0)      /* plain class attribute through an instance without a dict */ \
    PA_SPEC(LOAD_ATTR_INSTANCE_VALUE_MEGA, LOAD_ATTR, 0)         /* inline value of any number of types: the shared attribute table */ \
    PA_SPEC(LOAD_METHOD_ADAPTIVE, LOAD_METHOD, PA_F_ADAPTIVE)    \
    PA_SPEC(LOAD_METHOD_WITH_VALUES, LOAD_METHOD, 0)             /* class method; instance has inline values */ \
    PA_SPEC(LOAD_METHOD_NO_DICT, LOAD_METHOD, 0)                 /* class method; instances have no __dict__ */ \
    PA_SPEC(LOAD_METHOD_LAZY_DICT, LOAD_METHOD, 0)               /* class method; instance __dict__ not created */ \
    PA_SPEC(LOAD_METHOD_WITH_DICT, LOAD_METHOD, 0)               /* class method; the instance __dict__'s keys without the name */ \
    PA_SPEC(LOAD_METHOD_CLASS, LOAD_METHOD, 0)                   /* attribute of a class object */ \
    PA_SPEC(LOAD_METHOD_MODULE, LOAD_METHOD, 0)                  /* module attribute */ \
    PA_SPEC(LOAD_METHOD_WITH_VALUES_MEGA, LOAD_METHOD, 0)        /* as WITH_VALUES, any number of types: the shared attribute table */ \
    PA_SPEC(STORE_ATTR_ADAPTIVE, STORE_ATTR, PA_F_ADAPTIVE)      \
    PA_SPEC(STORE_ATTR_INSTANCE_VALUE, STORE_ATTR, 0)            /* inline values at index */ \
    PA_SPEC(STORE_ATTR_WITH_HINT, STORE_ATTR, 0)                 /* existing instance __dict__ entry */ \
    PA_SPEC(STORE_ATTR_SLOT, STORE_ATTR, 0)                      /* __slots__ member at offset */ \
    PA_SPEC(LOAD_GLOBAL_ADAPTIVE, LOAD_GLOBAL, PA_F_ADAPTIVE)    \
    PA_SPEC(LOAD_GLOBAL_MODULE, LOAD_GLOBAL, 0)                  /* globals entry at index, keys version guard */ \
    PA_SPEC(LOAD_GLOBAL_BUILTIN, LOAD_GLOBAL, 0)                 /* builtins entry at index, both keys versions */ \
    PA_SPEC(BINARY_OP_ADAPTIVE, BINARY_OP, PA_F_ADAPTIVE)        \
    PA_SPEC(BINARY_OP_ADD_INT, BINARY_OP, 0)                     \
    PA_SPEC(BINARY_OP_SUBTRACT_INT, BINARY_OP, 0)                \
    PA_SPEC(BINARY_OP_MULTIPLY_INT, BINARY_OP, 0)                \
    PA_SPEC(BINARY_OP_ADD_FLOAT, BINARY_OP, 0)                   \
    PA_SPEC(BINARY_OP_SUBTRACT_FLOAT, BINARY_OP, 0)              \
    PA_SPEC(BINARY_OP_MULTIPLY_FLOAT, BINARY_OP, 0)              \
    PA_SPEC(BINARY_OP_TRUE_DIVIDE_FLOAT, BINARY_OP, 0)           \
    PA_SPEC(BINARY_OP_ADD_UNICODE, BINARY_OP, 0)                 \
    PA_SPEC(BINARY_OP_INPLACE_ADD_UNICODE, BINARY_OP, 0)         /* s += t into the local s, in place */ \
    PA_SPEC(BINARY_OP_INT_BITWISE, BINARY_OP, 0)                 /* & | ^ << >> on ints (oparg says which) */ \
    PA_SPEC(BINARY_OP_FLOORDIV_MOD_INT, BINARY_OP, 0)            /* // and % on ints of at most two digits */ \
    PA_SPEC(BINARY_OP_NUMERIC, BINARY_OP, 0)                     /* + - * / on int and float mixed */ \
    PA_SPEC(COMPARE_OP_ADAPTIVE, COMPARE_OP, PA_F_ADAPTIVE)      \
    PA_SPEC(COMPARE_OP_INT, COMPARE_OP, 0)                       \
    PA_SPEC(COMPARE_OP_FLOAT, COMPARE_OP, 0)                     \
    PA_SPEC(COMPARE_OP_STR, COMPARE_OP, 0)                       /* == and != */ \
    PA_SPEC(COMPARE_OP_INT_JUMP, COMPARE_OP, 0)                  /* fused with the next POP_JUMP_IF_* */ \
    PA_SPEC(COMPARE_OP_FLOAT_JUMP, COMPARE_OP, 0)                \
    PA_SPEC(COMPARE_OP_STR_JUMP, COMPARE_OP, 0)                  \
    PA_SPEC(COMPARE_OP_NUMERIC, COMPARE_OP, 0)                   /* int and float mixed, as doubles */ \
    PA_SPEC(COMPARE_OP_NUMERIC_JUMP, COMPARE_OP, 0)              \
    PA_SPEC(BINARY_SUBSCR_ADAPTIVE, BINARY_SUBSCR, PA_F_ADAPTIVE) \
    PA_SPEC(BINARY_SUBSCR_LIST_INT, BINARY_SUBSCR, 0)            \
    PA_SPEC(BINARY_SUBSCR_TUPLE_INT, BINARY_SUBSCR, 0)           \
    PA_SPEC(BINARY_SUBSCR_DICT, BINARY_SUBSCR, 0)                \
    PA_SPEC(BINARY_SUBSCR_GETITEM, BINARY_SUBSCR, 0)             /* Python __getitem__, called inline */ \
    PA_SPEC(BINARY_SUBSCR_ARRAY_INT, BINARY_SUBSCR, 0)           /* array.array item, its typecode's getter */ \
    PA_SPEC(BINARY_SUBSCR_STR_INT, BINARY_SUBSCR, 0)             /* one character of a latin-1 str: the cached 1-char str */ \
    PA_SPEC(STORE_SUBSCR_ADAPTIVE, STORE_SUBSCR, PA_F_ADAPTIVE)  \
    PA_SPEC(STORE_SUBSCR_LIST_INT, STORE_SUBSCR, 0)              \
    PA_SPEC(STORE_SUBSCR_DICT, STORE_SUBSCR, 0)                  \
    PA_SPEC(STORE_SUBSCR_ARRAY_INT, STORE_SUBSCR, 0)             /* array.array item; 'd' and a float: stored directly */ \
    PA_SPEC(UNPACK_SEQUENCE_ADAPTIVE, UNPACK_SEQUENCE, PA_F_ADAPTIVE) \
    PA_SPEC(UNPACK_SEQUENCE_TWO_TUPLE, UNPACK_SEQUENCE, 0)       \
    PA_SPEC(UNPACK_SEQUENCE_TUPLE, UNPACK_SEQUENCE, 0)           \
    PA_SPEC(UNPACK_SEQUENCE_LIST, UNPACK_SEQUENCE, 0)            \
    PA_SPEC(CONTAINS_OP_ADAPTIVE, CONTAINS_OP, PA_F_ADAPTIVE)    \
    PA_SPEC(CONTAINS_OP_DICT, CONTAINS_OP, 0)                    /* key in an exact dict */ \
    PA_SPEC(CONTAINS_OP_SET, CONTAINS_OP, 0)                     /* key in an exact set or frozenset */ \
    PA_SPEC(CALL_ADAPTIVE, CALL, PA_F_ADAPTIVE)                  \
    PA_SPEC(CALL_PY_EXACT_ARGS, CALL, 0)                         /* Python function, inline frame */ \
    PA_SPEC(CALL_PY_WITH_DEFAULTS, CALL, 0)                      \
    PA_SPEC(CALL_PY_VARARGS, CALL, 0)                            /* Python function with *args, **kwargs or keyword-only parameters, positional arguments */ \
    PA_SPEC(CALL_PY_CLASS, CALL, 0)                              /* Python class with a Python __init__ */ \
    PA_SPEC(CALL_TYPE_1, CALL, 0)                                /* type(x) */ \
    PA_SPEC(CALL_STR_1, CALL, 0)                                 /* str(x) */ \
    PA_SPEC(CALL_TUPLE_1, CALL, 0)                               /* tuple(x) */ \
    PA_SPEC(CALL_LEN, CALL, 0)                                   /* len(x) */ \
    PA_SPEC(CALL_ISINSTANCE, CALL, 0)                            /* isinstance(x, t) */ \
    PA_SPEC(CALL_LIST_APPEND, CALL, 0)                           /* list.append(x) */ \
    PA_SPEC(CALL_BUILTIN_CLASS, CALL, 0)                         /* a type with tp_vectorcall */ \
    PA_SPEC(CALL_BUILTIN_O, CALL, 0)                             \
    PA_SPEC(CALL_BUILTIN_FAST, CALL, 0)                          \
    PA_SPEC(CALL_BUILTIN_FAST_WITH_KEYWORDS, CALL, 0)            \
    PA_SPEC(CALL_METHOD_DESCRIPTOR_O, CALL, 0)                   \
    PA_SPEC(CALL_METHOD_DESCRIPTOR_NOARGS, CALL, 0)              \
    PA_SPEC(CALL_METHOD_DESCRIPTOR_FAST, CALL, 0)                \
    PA_SPEC(CALL_METHOD_DESCRIPTOR_FAST_WITH_KEYWORDS, CALL, 0)  \
    PA_SPEC(CALL_NON_PY_GENERAL, CALL, 0)                        /* any callable but a Python function: vectorcall */ \
    PA_SPEC(FOR_ITER_ADAPTIVE, FOR_ITER, PA_F_ADAPTIVE)          \
    PA_SPEC(FOR_ITER_LIST, FOR_ITER, 0)                          \
    PA_SPEC(FOR_ITER_TUPLE, FOR_ITER, 0)                         \
    PA_SPEC(FOR_ITER_RANGE, FOR_ITER, 0)                         \
    PA_SPEC(FOR_ITER_GEN, FOR_ITER, 0)                           \
    PA_SPEC(FOR_ITER_ITERNEXT, FOR_ITER, 0)                      \
    PA_SPEC(SEND_ADAPTIVE, SEND, PA_F_ADAPTIVE)                  \
    PA_SPEC(SEND_GEN, SEND, 0)                                   \
    /* instructions whose semantics first came with CPython 3.12's bytecode */ \
    PA_OP0(RETURN_CONST, CONST, 0, 0, 0)                         /* return constant oparg */ \
    PA_OP0(BINARY_SLICE, NONE, 3, 1, 0)                          /* TOS = TOS2[TOS1:TOS] */ \
    PA_OP0(STORE_SLICE, NONE, 4, 0, 0)                           /* TOS2[TOS1:TOS] = TOS3 */ \
    PA_OP0(LOAD_FAST_AND_CLEAR, LOCAL, 0, 1, 0)                  /* push local oparg (maybe NULL), unbind it */ \
    PA_OP0(END_FOR, NONE, 2, 0, 0)                               /* pop two (a loop's exhausted iterator) */ \
    PA_OP0(END_SEND, NONE, 2, 1, 0)                              /* drop the receiver under TOS */ \
    PA_OP0(CLEANUP_THROW, NONE, 3, 2, 0)                         /* throw() into a delegate: StopIteration's value, or re-raise */ \
    PA_OP0(CALL_INTRINSIC_1, INTRINSIC_1, 1, 1, 0)               /* TOS = intrinsic oparg (TOS) */ \
    PA_OP0(CALL_INTRINSIC_2, INTRINSIC_2, 2, 1, 0)               /* TOS = intrinsic oparg (TOS1, TOS) */ \
    PA_OPC(LOAD_SUPER_ATTR, pa_cache_load_super, SUPER, 3, 1, 0) /* TOS = super(TOS1, TOS).name (TOS2: super) */ \
    PA_OPC(LOAD_SUPER_METHOD, pa_cache_load_super, SUPER, 3, 2, 0) /* push NULL, super(TOS1, TOS).name (or method, obj) */ \
    PA_SPEC(LOAD_SUPER_ATTR_ADAPTIVE, LOAD_SUPER_ATTR, PA_F_ADAPTIVE) \
    PA_SPEC(LOAD_SUPER_ATTR_INSTANCE, LOAD_SUPER_ATTR, 0)        /* cached attribute, bound to the instance */ \
    PA_SPEC(LOAD_SUPER_ATTR_CLASS, LOAD_SUPER_ATTR, 0)           /* cached attribute, bound to the class (classmethod, __new__) */ \
    PA_SPEC(LOAD_SUPER_METHOD_ADAPTIVE, LOAD_SUPER_METHOD, PA_F_ADAPTIVE) \
    PA_SPEC(LOAD_SUPER_METHOD_INSTANCE, LOAD_SUPER_METHOD, 0)    /* cached method and the instance, unbound */ \
    PA_SPEC(LOAD_SUPER_METHOD_CLASS, LOAD_SUPER_METHOD, 0)       /* NULL, cached attribute bound to the class */ \
    PA_OP0(LOAD_LOCALS, NONE, 0, 1, 0)                           /* push the frame's locals mapping */ \
    PA_OP0(LOAD_FROM_DICT_OR_GLOBALS, NAME, 1, 1, 0)             /* TOS[name], else globals/builtins */ \
    PA_OP0(LOAD_FROM_DICT_OR_DEREF, LOCAL, 1, 1, 0)              /* TOS[name of cell oparg], else the cell */ \
    /* instructions whose semantics first came with CPython 3.13's bytecode */ \
    PA_OPC(TO_BOOL, pa_cache_to_bool, NONE, 1, 1, 0)             /* TOS = bool(TOS) */ \
    PA_SPEC(TO_BOOL_ADAPTIVE, TO_BOOL, PA_F_ADAPTIVE)            \
    PA_SPEC(TO_BOOL_BOOL, TO_BOOL, 0)                            /* a bool: left as it is */ \
    PA_SPEC(TO_BOOL_INT, TO_BOOL, 0)                             /* an exact int: not zero */ \
    PA_SPEC(TO_BOOL_LIST, TO_BOOL, 0)                            /* an exact list: not empty */ \
    PA_SPEC(TO_BOOL_NONE, TO_BOOL, 0)                            /* None: False */ \
    PA_SPEC(TO_BOOL_STR, TO_BOOL, 0)                             /* an exact str: not empty */ \
    PA_SPEC(TO_BOOL_ALWAYS_TRUE, TO_BOOL, 0)                     /* an instance of a class with no __bool__ or __len__ (type version) */ \
    PA_SPEC(TO_BOOL_BOOL_JUMP, TO_BOOL, 0)                       /* each fused with the next POP_JUMP_IF_* */ \
    PA_SPEC(TO_BOOL_INT_JUMP, TO_BOOL, 0)                        \
    PA_SPEC(TO_BOOL_LIST_JUMP, TO_BOOL, 0)                       \
    PA_SPEC(TO_BOOL_NONE_JUMP, TO_BOOL, 0)                       \
    PA_SPEC(TO_BOOL_STR_JUMP, TO_BOOL, 0)                        \
    PA_SPEC(TO_BOOL_ALWAYS_TRUE_JUMP, TO_BOOL, 0)                \
    PA_OP0(CONVERT_VALUE, FORMAT, 1, 1, 0)                       /* TOS = str, repr or ascii (oparg 1..3) of TOS */ \
    PA_OP0(FORMAT_SIMPLE, NONE, 1, 1, 0)                         /* TOS = format(TOS) */ \
    PA_OP0(FORMAT_WITH_SPEC, NONE, 2, 1, 0)                      /* TOS = format(TOS1, TOS) */ \
    PA_OP0(SET_FUNCTION_ATTRIBUTE, FUNCTION_FLAGS, 2, 1, 0)      /* function TOS's part oparg (one flag bit) = TOS1 */ \
    PA_OP0(PUSH_NULL_UNDER, NONE, 1, 2, 0)                       /* 3.13's PUSH_NULL (after the callable): NULL under TOS */ \
    PA_OPC(CALL_KW, pa_cache_call, COUNT, oparg + 3, 1, 0)       /* 3.13's CALL_KW: CALL's stack, then the keyword names */ \
    PA_OP0(LOAD_FAST_LOAD_FAST, LOCAL_PAIR, 0, 2, 0)             /* push local oparg >> 4, then local oparg & 15 */ \
    PA_OP0(STORE_FAST_LOAD_FAST, LOCAL_PAIR, 1, 1, 0)            /* local oparg >> 4 = TOS; push local oparg & 15 */ \
    PA_OP0(STORE_FAST_STORE_FAST, LOCAL_PAIR, 2, 0, 0)           /* local oparg >> 4 = TOS, then local oparg & 15 = TOS */

/* Superinstructions: which pair of instructions each one fuses (see pa_unit_quicken). */
#define PA_SUPERINSTRUCTION_LIST \
    PA_SUPER(LOAD_FAST, LOAD_FAST, LOAD_FAST__LOAD_FAST) \
    PA_SUPER(LOAD_FAST, LOAD_CONST, LOAD_FAST__LOAD_CONST) \
    PA_SUPER(LOAD_CONST, LOAD_FAST, LOAD_CONST__LOAD_FAST) \
    PA_SUPER(STORE_FAST, LOAD_FAST, STORE_FAST__LOAD_FAST) \
    PA_SUPER(STORE_FAST, STORE_FAST, STORE_FAST__STORE_FAST)
