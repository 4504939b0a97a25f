/* pa_opcodes.h -- pyadapt's instruction set, defined once.
 *
 * Every consumer (the enum and dispatch table in pa_eval.c, the exported metadata
 * table pa_opinfo_table that the Python compiler and disassembler read through cffi)
 * expands this list with its own definitions of the three macros:
 *
 *   PA_OP0(NAME, FLAGS)           an instruction with no inline cache
 *   PA_OPC(NAME, CACHE, FLAGS)    the generic instruction of a family, followed by the
 *                                 cache struct CACHE (a typedef in pa_caches.h; its first
 *                                 field is the family's counter)
 *   PA_SPEC(NAME, FAMILY, FLAGS)  an adaptive (PA_F_ADAPTIVE) or specialized form of
 *                                 FAMILY: same operands and stack effect, same cache
 *                                 (PA_CACHE_OF_<FAMILY> below)
 *
 * Instruction word: one 32-bit code unit, opcode in the low 8 bits, oparg in the high
 * 24 bits (pyadapt has no EXTENDED_ARG).  Cache units follow the word.  Opargs keep
 * CPython 3.11's meaning except where a line says otherwise; jump opargs (PA_F_JUMP)
 * are absolute unit indices into the unit's code array.
 *
 * Stack effects are CPython 3.11's for the instruction of the same name (pyadapt's
 * compiler does not need them: the frame size comes from co_stacksize).
 */

/* flags */
#define PA_F_JUMP   1   /* oparg is an absolute jump target */
#define PA_F_NAME   2   /* oparg indexes co_names */
#define PA_F_CONST  4   /* oparg indexes co_consts */
#define PA_F_LOCAL  8   /* oparg indexes localsplus */
#define PA_F_ADAPTIVE 16 /* the adaptive form of its family: counts down, then specializes */
#define PA_F_SUPER  32  /* superinstruction: also executes the next instruction word */

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
#define PA_CACHE_OF_CALL pa_cache_call
#define PA_CACHE_OF_FOR_ITER pa_cache_for_iter
#define PA_CACHE_OF_SEND pa_cache_send

#define PA_OPCODE_LIST \
    PA_OP0(NOP, 0)                          /* nothing */ \
    PA_OP0(RESUME, 0)                       /* function start / after yield; checks the eval breaker if oparg < 2 */ \
    PA_OP0(POP_TOP, 0)                      /* pop and discard TOS */ \
    PA_OP0(PUSH_NULL, 0)                    /* push NULL (callable slot marker) */ \
    PA_OP0(UNARY_POSITIVE, 0)               /* TOS = +TOS */ \
    PA_OP0(UNARY_NEGATIVE, 0)               /* TOS = -TOS */ \
    PA_OP0(UNARY_NOT, 0)                    /* TOS = not TOS */ \
    PA_OP0(UNARY_INVERT, 0)                 /* TOS = ~TOS */ \
    PA_OPC(BINARY_SUBSCR, pa_cache_binary_subscr, 0) /* TOS = TOS1[TOS] */ \
    PA_OP0(GET_LEN, 0)                      /* push len(TOS) */ \
    PA_OP0(MATCH_MAPPING, 0)                /* push whether TOS is a mapping */ \
    PA_OP0(MATCH_SEQUENCE, 0)               /* push whether TOS is a sequence */ \
    PA_OP0(MATCH_KEYS, 0)                   /* push values of keys TOS in mapping TOS1, or None */ \
    PA_OP0(PUSH_EXC_INFO, 0)                /* push the handled exception, make TOS the current one */ \
    PA_OP0(CHECK_EXC_MATCH, 0)              /* push whether exception TOS1 matches type TOS */ \
    PA_OP0(CHECK_EG_MATCH, 0)               /* except*: split exception group TOS1 by type TOS */ \
    PA_OP0(WITH_EXCEPT_START, 0)            /* call __exit__ with the exception at TOS */ \
    PA_OP0(GET_AITER, 0)                    /* TOS = TOS.__aiter__() */ \
    PA_OP0(GET_ANEXT, 0)                    /* push awaitable of TOS.__anext__() */ \
    PA_OP0(BEFORE_ASYNC_WITH, 0)            /* push __aexit__ and the result of __aenter__() */ \
    PA_OP0(BEFORE_WITH, 0)                  /* push __exit__ and the result of __enter__() */ \
    PA_OP0(END_ASYNC_FOR, 0)                /* end async for on StopAsyncIteration, else re-raise */ \
    PA_OPC(STORE_SUBSCR, pa_cache_store_subscr, 0) /* TOS1[TOS] = TOS2 */ \
    PA_OP0(DELETE_SUBSCR, 0)                /* del TOS1[TOS] */ \
    PA_OP0(GET_ITER, 0)                     /* TOS = iter(TOS) */ \
    PA_OP0(GET_YIELD_FROM_ITER, 0)          /* iterator for yield from */ \
    PA_OP0(PRINT_EXPR, 0)                   /* sys.displayhook(TOS) */ \
    PA_OP0(LOAD_BUILD_CLASS, 0)             /* push builtins.__build_class__ */ \
    PA_OP0(LOAD_ASSERTION_ERROR, 0)         /* push AssertionError */ \
    PA_OP0(RETURN_GENERATOR, 0)             /* never executed: generator creation runs natively */ \
    PA_OP0(LIST_TO_TUPLE, 0)                /* TOS = tuple(TOS) */ \
    PA_OP0(RETURN_VALUE, 0)                 /* return TOS */ \
    PA_OP0(IMPORT_STAR, 0)                  /* from TOS import * */ \
    PA_OP0(SETUP_ANNOTATIONS, 0)            /* ensure __annotations__ in locals */ \
    PA_OP0(YIELD_VALUE, 0)                  /* yield TOS */ \
    PA_OP0(ASYNC_GEN_WRAP, 0)               /* wrap TOS for an async generator yield */ \
    PA_OP0(PREP_RERAISE_STAR, 0)            /* combine except* results */ \
    PA_OP0(POP_EXCEPT, 0)                   /* restore the previously handled exception */ \
    PA_OP0(STORE_NAME, PA_F_NAME)           /* locals[name] = TOS */ \
    PA_OP0(DELETE_NAME, PA_F_NAME)          /* del locals[name] */ \
    PA_OPC(UNPACK_SEQUENCE, pa_cache_unpack_sequence, 0) /* unpack TOS into oparg values */ \
    PA_OPC(FOR_ITER, pa_cache_for_iter, PA_F_JUMP) /* push next(TOS) or pop and jump to oparg */ \
    PA_OP0(UNPACK_EX, 0)                    /* starred unpack of TOS */ \
    PA_OPC(STORE_ATTR, pa_cache_store_attr, PA_F_NAME) /* TOS.name = TOS1 */ \
    PA_OP0(DELETE_ATTR, PA_F_NAME)          /* del TOS.name */ \
    PA_OP0(STORE_GLOBAL, PA_F_NAME)         /* globals[name] = TOS */ \
    PA_OP0(DELETE_GLOBAL, PA_F_NAME)        /* del globals[name] */ \
    PA_OP0(SWAP, 0)                         /* swap TOS and the oparg-th item */ \
    PA_OP0(LOAD_CONST, PA_F_CONST)          /* push co_consts[oparg] */ \
    PA_OP0(LOAD_NAME, PA_F_NAME)            /* push locals/globals/builtins[name] */ \
    PA_OP0(BUILD_TUPLE, 0)                  /* push tuple of oparg items */ \
    PA_OP0(BUILD_LIST, 0)                   /* push list of oparg items */ \
    PA_OP0(BUILD_SET, 0)                    /* push set of oparg items */ \
    PA_OP0(BUILD_MAP, 0)                    /* push dict of oparg pairs */ \
    PA_OPC(LOAD_ATTR, pa_cache_load_attr, PA_F_NAME) /* TOS = TOS.name */ \
    PA_OPC(COMPARE_OP, pa_cache_compare_op, 0) /* TOS = TOS1 <op> TOS */ \
    PA_OP0(IMPORT_NAME, PA_F_NAME)          /* import name (fromlist TOS, level TOS1) */ \
    PA_OP0(IMPORT_FROM, PA_F_NAME)          /* push TOS.name for from-import */ \
    PA_OP0(JUMP, PA_F_JUMP)                 /* jump to oparg; backward jumps check the eval breaker */ \
    PA_OP0(JUMP_NO_INTERRUPT, PA_F_JUMP)    /* jump to oparg without an eval breaker check */ \
    PA_OP0(JUMP_IF_FALSE_OR_POP, PA_F_JUMP) /* jump if TOS false (keep it), else pop */ \
    PA_OP0(JUMP_IF_TRUE_OR_POP, PA_F_JUMP)  /* jump if TOS true (keep it), else pop */ \
    PA_OP0(POP_JUMP_IF_FALSE, PA_F_JUMP)    /* pop TOS, jump if false */ \
    PA_OP0(POP_JUMP_IF_TRUE, PA_F_JUMP)     /* pop TOS, jump if true */ \
    PA_OP0(POP_JUMP_IF_NONE, PA_F_JUMP)     /* pop TOS, jump if None */ \
    PA_OP0(POP_JUMP_IF_NOT_NONE, PA_F_JUMP) /* pop TOS, jump if not None */ \
    PA_OPC(LOAD_GLOBAL, pa_cache_load_global, 0) /* push global co_names[oparg>>1] (and NULL first if oparg&1) */ \
    PA_OP0(IS_OP, 0)                        /* TOS = (TOS1 is TOS) ^ oparg */ \
    PA_OP0(CONTAINS_OP, 0)                  /* TOS = (TOS1 in TOS) ^ oparg */ \
    PA_OP0(RERAISE, 0)                      /* re-raise TOS (oparg: restore f_lasti from the stack) */ \
    PA_OP0(COPY, 0)                         /* push the oparg-th item */ \
    PA_OPC(BINARY_OP, pa_cache_binary_op, 0) /* TOS = TOS1 <op oparg> TOS */ \
    PA_OPC(SEND, pa_cache_send, PA_F_JUMP)  /* send TOS into TOS1; on return jump to oparg */ \
    PA_OP0(LOAD_FAST, PA_F_LOCAL)           /* push local oparg */ \
    PA_OP0(STORE_FAST, PA_F_LOCAL)          /* local oparg = TOS */ \
    PA_OP0(DELETE_FAST, PA_F_LOCAL)         /* del local oparg */ \
    PA_OP0(RAISE_VARARGS, 0)                /* raise (oparg 0..2 operands) */ \
    PA_OP0(GET_AWAITABLE, 0)                /* TOS = awaitable(TOS) */ \
    PA_OP0(MAKE_FUNCTION, 0)                /* make a function from code TOS (+ extras by oparg bits) */ \
    PA_OP0(BUILD_SLICE, 0)                  /* push slice of 2 or 3 items */ \
    PA_OP0(MAKE_CELL, PA_F_LOCAL)           /* local oparg = cell(local oparg) */ \
    PA_OP0(LOAD_CLOSURE, PA_F_LOCAL)        /* push cell oparg */ \
    PA_OP0(LOAD_DEREF, PA_F_LOCAL)          /* push contents of cell oparg */ \
    PA_OP0(STORE_DEREF, PA_F_LOCAL)         /* cell oparg contents = TOS */ \
    PA_OP0(DELETE_DEREF, PA_F_LOCAL)        /* empty cell oparg */ \
    PA_OP0(CALL_FUNCTION_EX, 0)             /* call with *args (and **kwargs if oparg&1) */ \
    PA_OP0(LIST_APPEND, 0)                  /* list at oparg .append(TOS) */ \
    PA_OP0(SET_ADD, 0)                      /* set at oparg .add(TOS) */ \
    PA_OP0(MAP_ADD, 0)                      /* dict at oparg [TOS1] = TOS */ \
    PA_OP0(LOAD_CLASSDEREF, PA_F_LOCAL)     /* class body: locals or cell oparg */ \
    PA_OP0(COPY_FREE_VARS, 0)               /* copy oparg closure cells into the frame */ \
    PA_OP0(MATCH_CLASS, 0)                  /* class pattern: TOS = attrs tuple or None */ \
    PA_OP0(FORMAT_VALUE, 0)                 /* f-string formatting */ \
    PA_OP0(BUILD_CONST_KEY_MAP, 0)          /* dict from const key tuple TOS and oparg values */ \
    PA_OP0(BUILD_STRING, 0)                 /* concatenate oparg strings */ \
    PA_OPC(LOAD_METHOD, pa_cache_load_method, PA_F_NAME) /* push method and self, or NULL and attribute */ \
    PA_OP0(LIST_EXTEND, 0)                  /* list at oparg .extend(TOS) */ \
    PA_OP0(SET_UPDATE, 0)                   /* set at oparg .update(TOS) */ \
    PA_OP0(DICT_MERGE, 0)                   /* dict at oparg merge TOS (call keywords) */ \
    PA_OP0(DICT_UPDATE, 0)                  /* dict at oparg .update(TOS) */ \
    PA_OPC(CALL, pa_cache_call, 0)          /* CPython's PRECALL+CALL: call with oparg arguments */ \
    PA_OP0(KW_NAMES, PA_F_CONST)            /* keyword names co_consts[oparg] for the next CALL */ \
    \
    /* ---- quickening: superinstructions (adaptive mode only) ---- */ \
    PA_OP0(LOAD_FAST__LOAD_FAST, PA_F_SUPER)   /* LOAD_FAST oparg; LOAD_FAST next */ \
    PA_OP0(LOAD_FAST__LOAD_CONST, PA_F_SUPER)  /* LOAD_FAST oparg; LOAD_CONST next */ \
    PA_OP0(LOAD_CONST__LOAD_FAST, PA_F_SUPER)  /* LOAD_CONST oparg; LOAD_FAST next */ \
    PA_OP0(STORE_FAST__LOAD_FAST, PA_F_SUPER)  /* STORE_FAST oparg; LOAD_FAST next */ \
    PA_OP0(STORE_FAST__STORE_FAST, PA_F_SUPER) /* STORE_FAST oparg; STORE_FAST next */ \
    \
    /* ---- adaptive and specialized forms, by family ---- */ \
    PA_SPEC(LOAD_ATTR_ADAPTIVE, LOAD_ATTR, PA_F_NAME | PA_F_ADAPTIVE) \
    PA_SPEC(LOAD_ATTR_INSTANCE_VALUE, LOAD_ATTR, PA_F_NAME)  /* value at index in the inline values */ \
    PA_SPEC(LOAD_ATTR_WITH_HINT, LOAD_ATTR, PA_F_NAME)      /* instance __dict__ entry at hint */ \
    PA_SPEC(LOAD_ATTR_SLOT, LOAD_ATTR, PA_F_NAME)           /* __slots__ member at offset */ \
    PA_SPEC(LOAD_ATTR_MODULE, LOAD_ATTR, PA_F_NAME)         /* module __dict__ entry at index */ \
    PA_SPEC(LOAD_ATTR_CLASS, LOAD_ATTR, PA_F_NAME)          /* class attribute (cached object) */ \
    PA_SPEC(LOAD_ATTR_PROPERTY, LOAD_ATTR, PA_F_NAME)       /* calls a Python property getter inline */ \
    PA_SPEC(LOAD_ATTR_GETATTRIBUTE_OVERRIDDEN, LOAD_ATTR, PA_F_NAME) /* calls a Python __getattribute__ inline */ \
    PA_SPEC(LOAD_ATTR_NONDESCRIPTOR_WITH_VALUES, LOAD_ATTR, PA_F_NAME) /* plain class attribute through an instance */ \
    PA_SPEC(LOAD_METHOD_ADAPTIVE, LOAD_METHOD, PA_F_NAME | PA_F_ADAPTIVE) \
    PA_SPEC(LOAD_METHOD_WITH_VALUES, LOAD_METHOD, PA_F_NAME) /* class method; instance has inline values */ \
    PA_SPEC(LOAD_METHOD_NO_DICT, LOAD_METHOD, PA_F_NAME)     /* class method; instances have no __dict__ */ \
    PA_SPEC(LOAD_METHOD_LAZY_DICT, LOAD_METHOD, PA_F_NAME)   /* class method; instance __dict__ not created */ \
    PA_SPEC(LOAD_METHOD_CLASS, LOAD_METHOD, PA_F_NAME)       /* attribute of a class object */ \
    PA_SPEC(LOAD_METHOD_MODULE, LOAD_METHOD, PA_F_NAME)      /* module attribute */ \
    PA_SPEC(STORE_ATTR_ADAPTIVE, STORE_ATTR, PA_F_NAME | PA_F_ADAPTIVE) \
    PA_SPEC(STORE_ATTR_INSTANCE_VALUE, STORE_ATTR, PA_F_NAME) /* inline values at index */ \
    PA_SPEC(STORE_ATTR_WITH_HINT, STORE_ATTR, PA_F_NAME)     /* existing instance __dict__ entry */ \
    PA_SPEC(STORE_ATTR_SLOT, STORE_ATTR, PA_F_NAME)          /* __slots__ member at offset */ \
    PA_SPEC(LOAD_GLOBAL_ADAPTIVE, LOAD_GLOBAL, PA_F_ADAPTIVE) \
    PA_SPEC(LOAD_GLOBAL_MODULE, LOAD_GLOBAL, 0)              /* globals entry at index, keys version guard */ \
    PA_SPEC(LOAD_GLOBAL_BUILTIN, LOAD_GLOBAL, 0)             /* builtins entry at index, both keys versions */ \
    PA_SPEC(BINARY_OP_ADAPTIVE, BINARY_OP, PA_F_ADAPTIVE) \
    PA_SPEC(BINARY_OP_ADD_INT, BINARY_OP, 0) \
    PA_SPEC(BINARY_OP_SUBTRACT_INT, BINARY_OP, 0) \
    PA_SPEC(BINARY_OP_MULTIPLY_INT, BINARY_OP, 0) \
    PA_SPEC(BINARY_OP_ADD_FLOAT, BINARY_OP, 0) \
    PA_SPEC(BINARY_OP_SUBTRACT_FLOAT, BINARY_OP, 0) \
    PA_SPEC(BINARY_OP_MULTIPLY_FLOAT, BINARY_OP, 0) \
    PA_SPEC(BINARY_OP_TRUE_DIVIDE_FLOAT, BINARY_OP, 0) \
    PA_SPEC(BINARY_OP_ADD_UNICODE, BINARY_OP, 0) \
    PA_SPEC(BINARY_OP_INPLACE_ADD_UNICODE, BINARY_OP, 0)     /* s += t into the local s, in place */ \
    PA_SPEC(BINARY_OP_INT_BITWISE, BINARY_OP, 0)             /* & | ^ on ints (oparg says which) */ \
    PA_SPEC(BINARY_OP_FLOORDIV_MOD_INT, BINARY_OP, 0)        /* // and % on non-negative small ints */ \
    PA_SPEC(BINARY_OP_NUMERIC, BINARY_OP, 0)                 /* + - * / on int and float mixed */ \
    PA_SPEC(COMPARE_OP_ADAPTIVE, COMPARE_OP, PA_F_ADAPTIVE) \
    PA_SPEC(COMPARE_OP_INT, COMPARE_OP, 0) \
    PA_SPEC(COMPARE_OP_FLOAT, COMPARE_OP, 0) \
    PA_SPEC(COMPARE_OP_STR, COMPARE_OP, 0)                   /* == and != */ \
    PA_SPEC(COMPARE_OP_INT_JUMP, COMPARE_OP, 0)              /* fused with the next POP_JUMP_IF_* */ \
    PA_SPEC(COMPARE_OP_FLOAT_JUMP, COMPARE_OP, 0) \
    PA_SPEC(COMPARE_OP_STR_JUMP, COMPARE_OP, 0) \
    PA_SPEC(COMPARE_OP_NUMERIC, COMPARE_OP, 0)               /* int and float mixed, as doubles */ \
    PA_SPEC(COMPARE_OP_NUMERIC_JUMP, COMPARE_OP, 0) \
    PA_SPEC(BINARY_SUBSCR_ADAPTIVE, BINARY_SUBSCR, PA_F_ADAPTIVE) \
    PA_SPEC(BINARY_SUBSCR_LIST_INT, BINARY_SUBSCR, 0) \
    PA_SPEC(BINARY_SUBSCR_TUPLE_INT, BINARY_SUBSCR, 0) \
    PA_SPEC(BINARY_SUBSCR_DICT, BINARY_SUBSCR, 0) \
    PA_SPEC(BINARY_SUBSCR_GETITEM, BINARY_SUBSCR, 0)         /* Python __getitem__, called inline */ \
    PA_SPEC(BINARY_SUBSCR_ARRAY_INT, BINARY_SUBSCR, 0)       /* array.array item, its typecode's getter */ \
    PA_SPEC(STORE_SUBSCR_ADAPTIVE, STORE_SUBSCR, PA_F_ADAPTIVE) \
    PA_SPEC(STORE_SUBSCR_LIST_INT, STORE_SUBSCR, 0) \
    PA_SPEC(STORE_SUBSCR_DICT, STORE_SUBSCR, 0) \
    PA_SPEC(STORE_SUBSCR_ARRAY_INT, STORE_SUBSCR, 0)         /* array.array item; 'd' and a float: stored directly */ \
    PA_SPEC(UNPACK_SEQUENCE_ADAPTIVE, UNPACK_SEQUENCE, PA_F_ADAPTIVE) \
    PA_SPEC(UNPACK_SEQUENCE_TWO_TUPLE, UNPACK_SEQUENCE, 0) \
    PA_SPEC(UNPACK_SEQUENCE_TUPLE, UNPACK_SEQUENCE, 0) \
    PA_SPEC(UNPACK_SEQUENCE_LIST, UNPACK_SEQUENCE, 0) \
    PA_SPEC(CALL_ADAPTIVE, CALL, PA_F_ADAPTIVE) \
    PA_SPEC(CALL_PY_EXACT_ARGS, CALL, 0)                     /* Python function, inline frame */ \
    PA_SPEC(CALL_PY_WITH_DEFAULTS, CALL, 0) \
    PA_SPEC(CALL_PY_CLASS, CALL, 0)                          /* Python class with a Python __init__ */ \
    PA_SPEC(CALL_TYPE_1, CALL, 0)                            /* type(x) */ \
    PA_SPEC(CALL_STR_1, CALL, 0)                             /* str(x) */ \
    PA_SPEC(CALL_TUPLE_1, CALL, 0)                           /* tuple(x) */ \
    PA_SPEC(CALL_LEN, CALL, 0)                               /* len(x) */ \
    PA_SPEC(CALL_ISINSTANCE, CALL, 0)                        /* isinstance(x, t) */ \
    PA_SPEC(CALL_LIST_APPEND, CALL, 0)                       /* list.append(x) */ \
    PA_SPEC(CALL_BUILTIN_CLASS, CALL, 0)                     /* a type with tp_vectorcall */ \
    PA_SPEC(CALL_BUILTIN_O, CALL, 0) \
    PA_SPEC(CALL_BUILTIN_FAST, CALL, 0) \
    PA_SPEC(CALL_BUILTIN_FAST_WITH_KEYWORDS, CALL, 0) \
    PA_SPEC(CALL_METHOD_DESCRIPTOR_O, CALL, 0) \
    PA_SPEC(CALL_METHOD_DESCRIPTOR_NOARGS, CALL, 0) \
    PA_SPEC(CALL_METHOD_DESCRIPTOR_FAST, CALL, 0) \
    PA_SPEC(CALL_METHOD_DESCRIPTOR_FAST_WITH_KEYWORDS, CALL, 0) \
    PA_SPEC(FOR_ITER_ADAPTIVE, FOR_ITER, PA_F_JUMP | PA_F_ADAPTIVE) \
    PA_SPEC(FOR_ITER_LIST, FOR_ITER, PA_F_JUMP) \
    PA_SPEC(FOR_ITER_TUPLE, FOR_ITER, PA_F_JUMP) \
    PA_SPEC(FOR_ITER_RANGE, FOR_ITER, PA_F_JUMP) \
    PA_SPEC(FOR_ITER_GEN, FOR_ITER, PA_F_JUMP) \
    PA_SPEC(SEND_ADAPTIVE, SEND, PA_F_JUMP | PA_F_ADAPTIVE) \
    PA_SPEC(SEND_GEN, SEND, PA_F_JUMP)

/* Superinstructions: which pair of instructions each one fuses (see pa_unit_quicken). */
#define PA_SUPERINSTRUCTION_LIST \
    PA_SUPER(LOAD_FAST, LOAD_FAST, LOAD_FAST__LOAD_FAST) \
    PA_SUPER(LOAD_FAST, LOAD_CONST, LOAD_FAST__LOAD_CONST) \
    PA_SUPER(LOAD_CONST, LOAD_FAST, LOAD_CONST__LOAD_FAST) \
    PA_SUPER(STORE_FAST, LOAD_FAST, STORE_FAST__LOAD_FAST) \
    PA_SUPER(STORE_FAST, STORE_FAST, STORE_FAST__STORE_FAST)
