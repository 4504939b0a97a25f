# pyadapt regression: a function made of module-level code (types.FunctionType(compile(...)))
# Found by: tools/regrtest.py --all, CPython's test_builtin test_compile_top_level_await
#   (2026-12-04).  Such a frame's locals are its globals (the code has no fast locals).  Once
#   CALL_PY_* also took coroutine functions, a top-level-await code object run as a function
#   got an inline frame without locals: "SystemError: no locals when loading 'asyncio'".  The
#   specializer now leaves such functions to the generic CALL, which sets the locals up.
# MODES: adaptive generic w0 w50
# EXPECTED-STDOUT:
#| top-level await: 5 1
#| plain module code: 6
#| async comprehension: [0, 1]
import ast
import asyncio
import types

flags = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
co = compile("a = await asyncio.sleep(0, result=1)\nn += 1", "?", "exec", flags=flags)
g = {"asyncio": asyncio, "a": 0, "n": 0}
coro_fn = types.FunctionType(co, g)


def run_many():
    for _ in range(5):
        asyncio.run(coro_fn())
    return g["n"], g["a"]


print("top-level await:", *run_many())

plain = types.FunctionType(compile("b = x + 1\nx = b", "?", "exec"), {"x": 0})


def call_plain():
    for _ in range(6):
        plain()
    return plain.__globals__["x"]


print("plain module code:", call_plain())


async def arange(n):
    for i in range(n):
        yield i

co3 = compile("r = [x async for x in arange(2)]", "?", "exec", flags=flags)
g3 = {"arange": arange}
for _ in range(3):
    asyncio.run(types.FunctionType(co3, g3)())
print("async comprehension:", g3["r"])
