"""Units keep no copy of their generic code: what relies on it still sees the same thing.

The generic code is compiled again from the code object when configure() re-quickens units
and for dis(adaptive=False); walking a unit's instructions reads the cache sizes from its
live code, so every form of a family and every superinstruction must have its first
instruction's cache size.
"""
import pyadapt
from pyadapt import _compiler, _pyadapt as core, _word
from pyadapt._pyadapt import ffi, lib


def _work(n):
    total = 0
    for i in range(n):
        x = i
        y = x
        total += y * 2 if i % 3 else len(str(y))
    return total


def test_forms_share_their_family_cache_size():
    names = {name: info.code for name, info in _compiler.OPS.items()}
    for op in names.values():
        info = lib.pa_opinfo_table[op]
        assert lib.pa_opinfo_table[info.family].ncache == info.ncache, op
    supers = [n for n, op in names.items() if lib.pa_opinfo_table[op].flags & lib.PA_F_SUPER]
    assert supers
    for name in supers:
        first = name.split("__")[0]
        assert lib.pa_opinfo_table[names[name]].ncache == lib.pa_opinfo_table[names[first]].ncache


def test_generic_code_is_what_generic_mode_runs():
    code = _work.__code__
    pyadapt.run(_work, 50)
    unit = ffi.cast("pa_unit *", core.unit_address(code))
    live = bytes(ffi.buffer(unit.code, 4 * unit.ncode))
    generic = core.generic_code(code)
    assert len(generic) == len(live)
    assert generic != live                      # quickened and specialized
    try:
        pyadapt.configure(specialize=False)
        assert bytes(ffi.buffer(unit.code, 4 * unit.ncode)) == generic
        assert pyadapt.run(_work, 50) == _work(50)
        assert bytes(ffi.buffer(unit.code, 4 * unit.ncode)) == generic
    finally:
        pyadapt.configure(specialize=True)
    quickened = bytes(ffi.buffer(unit.code, 4 * unit.ncode))
    assert quickened != generic
    assert pyadapt.run(_work, 50) == _work(50)


def test_dis_generic_form_after_specializing():
    pyadapt.run(_work, 50)
    generic = [(i.opname, i.arg, i.offset) for i in
               pyadapt.get_instructions(_work, adaptive=False)]
    live = [(i.opname, i.arg, i.offset) for i in pyadapt.get_instructions(_work)]
    assert [o for o, _, _ in generic] != [o for o, _, _ in live]
    pyadapt.configure(specialize=False)
    try:
        unquickened = _compiler.compile_code(_work.__code__)     # generic mode: not quickened
        assert [(i.opname, i.arg, i.offset) for i in pyadapt.get_instructions(_work)] == generic
    finally:
        pyadapt.configure(specialize=True)
    try:
        words = memoryview(core.generic_code(_work.__code__)).cast("I")
        assert list(words) == [unquickened.code[i] for i in range(unquickened.ncode)]
        assert not any(lib.pa_opinfo_table[_word.opcode(w)].flags
                       & (lib.PA_F_SUPER | lib.PA_F_ADAPTIVE) for w in words)
    finally:
        lib.pa_unit_free(unquickened)


def _add(a, b):
    return a + b


def _add_many(pairs, n):
    for a, b in pairs:
        for _ in range(n):
            _add(a, b)


def test_site_record_keeps_four_observations_and_counts_the_rest():
    # the record keeps its first observation inline and the next three in `more`
    pairs = [(1, 2), (1.0, 2.0), ("a", "b"), ([1], [2]), ((1,), (2,)), (b"a", b"b"),
             (1, 2.0), (2.0, 1)]
    pyadapt.run(_add_many, pairs, 300)
    raw = core.site_records(_add.__code__)
    records = ffi.from_buffer("pa_site_record[]", raw)
    assert len(records) == 1
    r = records[0]
    assert r.nseen == lib.PA_SEEN_MAX
    assert r.unseen >= 1
    assert sum(r.seen[k].count for k in range(r.nseen)) + r.unseen == r.attempts
    seen = {(ffi.string(r.seen[k].types[0]).decode(), ffi.string(r.seen[k].types[1]).decode())
            for k in range(r.nseen)}
    assert len(seen) == lib.PA_SEEN_MAX and ("int", "int") in seen
    # configure() starts the sites over: the records and what they hold are freed
    pyadapt.configure(specialize=False)
    pyadapt.configure(specialize=True)
    assert core.site_records(_add.__code__) == b""


def test_configure_skips_rejected_units():
    # a rejected unit has no code to compile again: configure() leaves it alone
    def f():
        return 1
    code = f.__code__.replace(co_code=b"\xff\x00" + f.__code__.co_code[2:])
    unit = ffi.cast("pa_unit *", core.compile(code))
    assert unit.reject_reason
    pyadapt.configure(specialize=False)
    pyadapt.configure(specialize=True)
    assert pyadapt.run(_work, 10) == _work(10)
