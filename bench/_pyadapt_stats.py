"""Read pyadapt's counters as one flat summary (used by the workers and the smoke test).

pyadapt.stats() has per-family counters ("families") from issue 4's introspection on; an
older core only has the global counters and the raw per-opcode table, which this reads
through cffi instead.  Only imported where pyadapt runs (CPython 3.11).
"""
import pyadapt


def summary():
    st = pyadapt.stats()
    out = {
        "instructions": st["instructions"],
        "frames": st["frames"],
        "inlined_calls": st.get("inlined_calls", 0),
        "compiled": st.get("compiled", 0),
        "fallbacks": sum(st.get("fallbacks", {}).values()),
        "fallback_reasons": {k: v for k, v in st.get("fallbacks", {}).items() if v},
    }
    families = st.get("families")
    if families is not None:
        for key in ("specialized", "failures", "hits", "misses", "deopts"):
            out[key] = sum(f.get(key, 0) for f in families.values())
    else:
        from pyadapt import _lib

        table = _lib.pa_op_stats
        for key in ("specialized", "failures", "hits", "misses", "deopts"):
            out[key] = sum(getattr(table[op], key) for op in range(_lib.pa_num_opcodes))
    return out
