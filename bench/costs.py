"""pyperf script for pyadapt's own costs (CPython 3.11 with pyadapt only).

    python bench/costs.py [pyperf options]

Benchmarks (each in its own worker processes, like the workloads):

compile_adaptive / compile_generic
    pyadapt._compiler.compile_code() over every code object of the workloads (nested ones
    included), per code object; the unit is freed again.  The static size figures of the
    same code objects (CPython instructions and bytes; pyadapt instruction words, inline
    cache units, side tables) go into the benchmark's metadata.
call_native, call_jit, call_native_hooked, call_inlined
    a native loop calling a one-line function, per call: a plain function with no hook
    installed; a @pyadapt.jit function (the hook runs pyadapt's loop for each call); a plain
    function while a jit function exists (the hook is installed and passes the frame to
    CPython's loop); and the loop itself under pyadapt.run calling a plain function (a
    pyadapt-to-pyadapt call, pushed in the same C loop).
run_entry
    pyadapt.run(f) of a function that returns at once, per call.
stats_read
    one pyadapt.stats() call, with the units of every workload attached.
"""
import os
import sys
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
if sys.path and os.path.abspath(sys.path[0] or os.curdir) == HERE:
    sys.path[0] = ROOT
elif ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import pyperf  # noqa: E402

import pyadapt  # noqa: E402
from pyadapt import _compiler, _word  # noqa: E402
from pyadapt._pyadapt import ffi, lib  # noqa: E402

from bench import workloads  # noqa: E402

CALLS = 100_000


def code_objects():
    """Every code object of every workload module, nested ones included, in a stable order."""
    out = []
    seen = set()

    def walk(code):
        if id(code) in seen:
            return
        seen.add(id(code))
        out.append(code)
        for c in code.co_consts:
            if isinstance(c, types.CodeType):
                walk(c)

    for mod in workloads.load_all():
        with open(mod.__file__) as f:
            walk(compile(f.read(), mod.__file__, "exec"))
    return out


def static_sizes(codes):
    """CPython's and pyadapt's size of the same code objects."""
    import dis

    cpy_instr = cpy_bytes = words = cache_units = side_bytes = 0
    for code in codes:
        cpy_instr += sum(1 for _ in dis.get_instructions(code))
        cpy_bytes += len(code.co_code)
        unit = _compiler.compile_code(code)
        try:
            n = unit.ncode
            i = 0
            while i < n:
                op = _word.opcode(unit.code[i])
                ncache = lib.pa_opinfo_table[op].ncache
                words += 1
                cache_units += ncache
                i += 1 + ncache
            # to_cpy, from_cpy and the exception table, at the widths the cdef gives them
            side_bytes += (ffi.sizeof(ffi.typeof(unit.to_cpy).item) * n
                           + ffi.sizeof(ffi.typeof(unit.from_cpy).item) * (unit.ncpy + 1)
                           + ffi.sizeof("pa_exc_entry") * unit.nexc)
        finally:
            lib.pa_unit_free(unit)
    return {
        "code_objects": len(codes),
        "cpython_instructions": cpy_instr,
        "cpython_bytes": cpy_bytes,
        "pyadapt_instruction_words": words,
        "pyadapt_cache_units": cache_units,
        "pyadapt_side_table_bytes": side_bytes,
    }


def compile_time_func(codes, specialize):
    def time_func(loops):
        pyadapt.configure(specialize=specialize)
        compile_code = _compiler.compile_code
        free = lib.pa_unit_free
        t0 = time.perf_counter()
        for _ in range(loops):
            for code in codes:
                free(compile_code(code))
        return time.perf_counter() - t0

    return time_func


def callee(x):
    return x


def jit_callee(x):
    return x


def drive(f, n):
    for i in range(n):
        f(i)


def call_native(loops):
    t0 = time.perf_counter()
    for _ in range(loops):
        drive(callee, CALLS)
    return time.perf_counter() - t0


def call_jit(loops):
    pyadapt.jit(jit_callee)  # from now on the hook is installed in this process
    t0 = time.perf_counter()
    for _ in range(loops):
        drive(jit_callee, CALLS)
    return time.perf_counter() - t0


def call_native_hooked(loops):
    pyadapt.jit(jit_callee)  # installs the hook; callee itself stays native
    t0 = time.perf_counter()
    for _ in range(loops):
        drive(callee, CALLS)
    return time.perf_counter() - t0


def call_inlined(loops):
    run = pyadapt.run
    t0 = time.perf_counter()
    for _ in range(loops):
        run(drive, callee, CALLS)
    return time.perf_counter() - t0


def nothing():
    return None


def run_entry(loops):
    run = pyadapt.run
    t0 = time.perf_counter()
    for _ in range(loops):
        for _ in range(CALLS // 10):
            run(nothing)
    return time.perf_counter() - t0


_warmed = False


def stats_read(loops):
    global _warmed
    if not _warmed:
        for mod in workloads.load_all():
            pyadapt.run(mod.run, mod.TINY)
        _warmed = True
    stats = pyadapt.stats
    t0 = time.perf_counter()
    for _ in range(loops):
        stats()
    return time.perf_counter() - t0


def main():
    runner = pyperf.Runner()
    args = runner.parse_args()
    runner.metadata["bench_mode"] = "costs"
    codes = code_objects()
    sizes = {}
    if args.worker and args.worker_task in (0, 1):
        sizes = static_sizes(codes)
    runner.bench_time_func("compile_adaptive", compile_time_func(codes, True),
                           inner_loops=len(codes), metadata=dict(sizes))
    runner.bench_time_func("compile_generic", compile_time_func(codes, False),
                           inner_loops=len(codes), metadata=dict(sizes))
    runner.bench_time_func("call_native", call_native, inner_loops=CALLS)
    runner.bench_time_func("call_jit", call_jit, inner_loops=CALLS)
    runner.bench_time_func("call_native_hooked", call_native_hooked, inner_loops=CALLS)
    runner.bench_time_func("call_inlined", call_inlined, inner_loops=CALLS)
    runner.bench_time_func("run_entry", run_entry, inner_loops=CALLS // 10)
    runner.bench_time_func("stats_read", stats_read)


if __name__ == "__main__":
    main()
