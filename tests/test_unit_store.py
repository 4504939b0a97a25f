"""The unit store (csrc/pa_units.c): code object -> unit, open addressing with linear probing.

A lookup that misses the home slot moves the entry it finds there (pa_unit_probe), so hot
code is found by the first probe.  With thousands of code objects many share a home slot;
these cases call, free and call again in an order that makes entries swap and shift, and
check that every code object still finds its own unit: the same address, an entry count that
goes on from where it was, nothing compiled twice, and the results CPython gives."""
import gc
import random

import pyadapt
from pyadapt import _core


def _make(n):
    funcs = []
    for i in range(n):
        ns = {}
        exec(f"def f{i}(x):\n    return x * {i} + 1\n", ns)
        funcs.append(ns[f"f{i}"])
    return funcs


def _call_all(funcs, order):
    return [funcs[i](3) for i in order]


def test_many_code_objects_keep_their_units_through_swaps_and_deletions():
    rng = random.Random(9)
    funcs = _make(3000)
    order = list(range(len(funcs)))
    rng.shuffle(order)
    expected = [i * 3 + 1 for i in order]
    assert pyadapt.run(_call_all, funcs, order) == expected
    addresses = [_core.unit_address(f.__code__) for f in funcs]
    assert all(addresses)
    # hot ones called again and again, in several orders: each lookup that misses its home
    # slot moves its entry there, displacing another
    for rnd in range(4):
        rng.shuffle(order)
        assert pyadapt.run(_call_all, funcs, order + order[:500]) == [i * 3 + 1 for i in order + order[:500]]
    assert [_core.unit_address(f.__code__) for f in funcs] == addresses
    entries = [pyadapt.unit_info(f)["entries"] for f in funcs]
    assert all(e >= 5 for e in entries), min(entries)

    # free a random half (backward-shift deletion over swapped runs), then look the rest up
    compiled = pyadapt.stats()["compiled"]
    dead = set(rng.sample(range(len(funcs)), len(funcs) // 2))
    alive = [i for i in range(len(funcs)) if i not in dead]
    for i in dead:
        funcs[i] = None
    gc.collect()
    rng.shuffle(alive)
    assert pyadapt.run(_call_all, funcs, alive) == [i * 3 + 1 for i in alive]
    for i in alive:
        assert _core.unit_address(funcs[i].__code__) == addresses[i], i
        assert pyadapt.unit_info(funcs[i])["entries"] == entries[i] + 1, i
    assert pyadapt.stats()["compiled"] == compiled      # found, not compiled again

    # new code objects take the freed slots; the survivors are still found
    more = _make(1500)
    assert pyadapt.run(_call_all, more, range(1500)) == [i * 3 + 1 for i in range(1500)]
    assert pyadapt.run(_call_all, funcs, alive) == [i * 3 + 1 for i in alive]
    for i in alive:
        assert _core.unit_address(funcs[i].__code__) == addresses[i], i
        assert pyadapt.unit_info(funcs[i])["entries"] == entries[i] + 2, i


def test_code_too_large_for_16_bit_offsets_runs_in_cpythons_loop():
    """from_cpy holds 16-bit pyadapt indices: a code object of PA_MAX_CODE_UNITS (65,535)
    CPython code units or more is not compiled (compile_failed, saying why) and runs in
    CPython's loop with the same result; one just below the limit is compiled."""
    from pyadapt._pyadapt import lib

    def make(n):
        # each line is LOAD_CONST, STORE_FAST (2 code units); RESUME, the return: 3 more
        src = "def f():\n    x = 0\n" + "    x = 1\n" * n + "    return x + 1\n"
        ns = {}
        exec(compile(src, "<large>", "exec"), ns)
        return ns["f"]

    big = make(lib.PA_MAX_CODE_UNITS // 2)
    assert len(big.__code__.co_code) // 2 >= lib.PA_MAX_CODE_UNITS
    pyadapt.reset_stats()
    assert pyadapt.run(big) == 2
    info = pyadapt.unit_info(big)
    assert info["rejected"] == "compile_failed"
    assert "too large" in info["rejected_because"] and "65,535" in info["rejected_because"]
    assert pyadapt.stats()["fallbacks"].get("compile_failed", 0) >= 1

    small = make(lib.PA_MAX_CODE_UNITS // 2 - 10)
    assert len(small.__code__.co_code) // 2 < lib.PA_MAX_CODE_UNITS
    frames = pyadapt.stats()["frames"]
    assert pyadapt.run(small) == 2
    assert pyadapt.unit_info(small)["rejected"] is None
    assert pyadapt.stats()["frames"] == frames + 1


def test_offsets_past_32767_show_exactly_in_tracebacks_and_frames():
    """to_cpy holds 16-bit CPython offsets: in a compiled code object whose last lines sit
    past offset 32,767 (where a signed 16-bit entry would turn negative) and close to the
    65,535 limit, a frame a callee inspects and a traceback show the same line and f_lasti as
    natively."""
    import sys
    import traceback
    from pyadapt._pyadapt import lib

    n = lib.PA_MAX_CODE_UNITS // 2 - 40
    src = ("def f(probe):\n    x = 0\n" + "    x = 1\n" * n
           + "    probe()\n    return 1 // (x - 1)\n")
    ns = {}
    exec(compile(src, "<large>", "exec"), ns)
    f = ns["f"]
    assert len(f.__code__.co_code) // 2 < lib.PA_MAX_CODE_UNITS

    def observe(run):
        seen = []

        def probe():
            caller = sys._getframe(1)
            seen.append((caller.f_lineno, caller.f_lasti))
        try:
            run(f, probe)
        except ZeroDivisionError as e:
            tb = traceback.extract_tb(e.__traceback__)[-1]
            seen.append((tb.lineno, tb.name))
        return seen

    native = observe(lambda fn, p: fn(p))
    assert native[0][0] == n + 3 and native[0][1] > 2 * 32767 and native[1] == (n + 4, "f")
    frames = pyadapt.stats()["frames"]
    ran = observe(pyadapt.run)
    # the same line and traceback; f_lasti in the same call instruction: a caller suspended in
    # a Python call shows the call or, inlined (pyadapt; 3.11/3.12 natively while no PEP 523
    # hook is set, which depends on the tests run before), its last cache entry
    assert ran[0][0] == native[0][0] and ran[1] == native[1]
    assert 0 <= ran[0][1] - native[0][1] <= 8 or 0 <= native[0][1] - ran[0][1] <= 8
    assert pyadapt.unit_info(f)["rejected"] is None
    assert pyadapt.stats()["frames"] >= frames + 1
