"""pyadapt's statistics per site: one record per specializable instruction that ran.

A *site* is one instruction of a family that can specialize (it has an adaptive form), in one
compiled unit.  ``site_records()`` reads every unit the C core holds
(``_core._compiled_codes()``) through ``get_instructions``, the same model of "an instruction
as it is now" that ``dis`` and the report use, and turns each site into a plain dict: where
it is in the source, what it is now, and what its inline cache counts.  ``document()`` is the
whole ``--stats-json`` file: the run (mode, versions, program), ``pyadapt.stats()``'s totals
and the sites.  ``format_top_sites()`` is the ``--stats`` section of the sites to look at.

What a site keeps is what its cache holds (pa_caches.h): the hits of its specialized form
since it last specialized, the counter (the remaining miss budget of a specialized form, from
which its misses follow), the backoff exponent (one more at each failed attempt and each
deopt, capped at max_backoff: the site's history of trouble; back to 1 at a deopt after twice
as many hits as misses) and the kind of the last failed attempt.  Beside the caches, the specializer keeps a record per site it was called for
(csrc/pa_sites.c, off the hot path): its attempts, its deopts, and what each attempt saw --
the operands' types, the kind of callable or attribute, the outcome (``seen_at``).
"""
import os
import sys

from . import __version__
from . import _pyadapt as _core, _word
from ._compiler import OPNAMES, OPS
from ._advice import explain
from ._introspect import _FAIL_NAMES, get_instructions, stats
from ._pyadapt import ffi, lib

__all__ = ["FORMAT", "FORMAT_VERSION", "document", "site_records", "format_top_sites",
           "specializable_families"]

FORMAT = "pyadapt-stats"
FORMAT_VERSION = 1   # bumped when a key changes meaning or goes; new keys may come without

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def specializable_families():
    """Names of the families that have an adaptive form (and so sites)."""
    families = set()
    for info in OPS.values():
        cinfo = lib.pa_opinfo_table[info.code]
        if cinfo.flags & lib.PA_F_ADAPTIVE:
            families.add(OPNAMES[cinfo.family])
    return families


def is_own_file(filename):
    """A file of pyadapt's own package (the code that writes the statistics and the report)."""
    return os.path.dirname(os.path.abspath(filename)) == _PACKAGE_DIR


def config():
    c = lib.pa_config
    return {"specialize": bool(c.specialize), "warmup": c.warmup,
            "miss_budget": c.miss_budget, "max_backoff": c.max_backoff}


def _text(ptr):
    return ffi.string(ptr).decode("utf-8", "replace") if ptr else None


def seen_at(code):
    """What the specializer saw at each site of ``code``'s unit that it was called for:
    {pyadapt offset: {"attempts", "deopts" (counted at the attempt after each), "seen": [{
    "types": the operands' type names, "kind": the callable's or attribute's kind or None,
    "result": the form it specialized to or the failure kind, "specialized": bool, "count":
    attempts that saw exactly this}], "unseen": attempts not kept (more than 4 different)}}.
    """
    # a copy taken in one step: the live array can move between two bytecodes of this loop
    raw = _core.site_records(code)
    records = ffi.from_buffer("pa_site_record[]", raw)
    out = {}
    for i in range(len(raw) // ffi.sizeof("pa_site_record")):
        r = records[i]
        seen = []
        for k in range(r.nseen):
            e = r.seen[k]
            types = [t for t in (_text(e.types[0]), _text(e.types[1])) if t is not None]
            kind = _text(e.detail)
            if kind == MISSED:
                # a miss of the specialized form `result`: these operands failed its guards
                result, specialized = OPNAMES[e.outcome], False
            elif e.outcome >= 0:
                result, specialized = OPNAMES[e.outcome], True
            else:
                result, specialized = _FAIL_NAMES[-e.outcome], False
            seen.append({"types": types, "kind": kind, "result": result,
                         "specialized": specialized, "count": e.count})
        out[r.index] = {"attempts": r.attempts, "deopts": r.deopts, "seen": seen,
                        "unseen": r.unseen}
    return out


# the kind of an observation made at a miss of a specialized form (csrc/pa_sites.c)
MISSED = "missed its guards"


def deopt_pending(ins):
    """Whether ``ins`` is an adaptive site whose last event was a deopt (its counter has a
    backoff and no failure kind), not yet followed by an attempt that would count it."""
    if ins.kind != "adaptive" or not ins.caches:
        return False
    raw = ins.caches[_word.COUNTER][1]
    return _word.backoff(raw) != 0 and _word.failure_kind(raw) == 0


def _record(code, ins, miss_budget, seen=None):
    raw = ins.caches[_word.COUNTER][1] if ins.caches else 0
    p = ins.positions
    misses = max(miss_budget - ins.counter, 0) if ins.kind == "specialized" else 0
    seen = seen or {"attempts": 0, "deopts": 0, "seen": [], "unseen": 0}
    return {
        "file": code.co_filename,
        "line": p.lineno if p else None,
        "column": p.col_offset if p else None,
        "end_line": p.end_lineno if p else None,
        "end_column": p.end_col_offset if p else None,
        "function": code.co_qualname,
        "offset": ins.cpy_offset,
        "instruction": ins.family,
        "form": ins.opname,
        "kind": ins.kind,
        "hits": ins.hits,
        "misses": misses,
        "backoff": _word.backoff(raw),
        "countdown": ins.counter,
        "failure": ins.failure,
        "attempts": seen["attempts"],
        "deopts": seen["deopts"] + deopt_pending(ins),
        "seen": seen["seen"],
        "advice": advice(ins, seen, misses),
    }


def advice(ins, seen, misses):
    """The change to the code that would let the site specialize, or None (_advice)."""
    deopts = seen["deopts"] + deopt_pending(ins)
    missing = ins.kind == "specialized" and misses > 0
    if not (ins.failure or missing or (ins.kind == "adaptive" and deopts)):
        return None
    return explain(ins.family, ins.argrepr, ins.failure, seen["seen"], deopts,
                   specialized=missing)[1]


def _ran(ins, warmup):
    """Whether a site ran since it was compiled (or re-quickened): an adaptive site that has
    not counted down, failed or backed off never executed."""
    if ins.kind != "adaptive":
        return True
    raw = ins.caches[_word.COUNTER][1]
    return ins.failure is not None or _word.backoff(raw) or ins.counter != warmup


def site_records(codes=None):
    """A record per site that ran, of every unit alive (pyadapt's own modules left out),
    ordered by file, line, column and offset.

    Generic mode keeps nothing per site (no adaptive forms, no caches in use), so its sites
    are not listed.
    """
    if codes is None:
        codes = _core._compiled_codes()
    cfg = config()
    families = specializable_families()
    records = []
    for code in codes:
        if not code.co_filename or is_own_file(code.co_filename):
            continue
        seen = seen_at(code)
        for ins in get_instructions(code):
            if ins.kind not in ("specialized", "adaptive") or ins.family not in families:
                continue
            if _ran(ins, cfg["warmup"]):
                records.append(_record(code, ins, cfg["miss_budget"], seen.get(ins.offset)))
    records.sort(key=lambda r: (r["file"], r["line"] or 0, r["column"] or 0, r["function"],
                                r["offset"]))
    return records


def document(program=None, *, totals=None, sites=None):
    """The ``--stats-json`` document: the run, ``pyadapt.stats()``'s keys (or ``totals``),
    ``sites`` (default: ``site_records()`` now).  ``program`` is the launcher's description
    of what ran: {"kind": "script" | "module" | "command" | "stdin" | "interactive",
    "target": the path, module name or code, "args": its arguments}, or None."""
    cfg = config()
    doc = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "pyadapt": __version__,
        "python": sys.version.split()[0],
        "implementation": sys.implementation.name,
        "mode": "adaptive" if cfg["specialize"] else "generic",
        "warmup": cfg["warmup"] if cfg["specialize"] else None,
        "miss_budget": cfg["miss_budget"],
        "max_backoff": cfg["max_backoff"],
        "program": program,
    }
    doc.update(stats() if totals is None else totals)
    doc["sites"] = site_records() if sites is None else sites
    return doc


# ---- --stats: the sites to look at ----

def _where(record, cwd):
    filename = record["file"]
    if cwd and os.path.isabs(filename) and filename.startswith(cwd + os.sep):
        filename = filename[len(cwd) + 1:]
    if record["line"] is None:
        return "%s (offset %d)" % (filename, record["offset"])
    return "%s:%d:%d" % (filename, record["line"], record["column"] or 0)


def missing_sites(records):
    """Specialized sites whose guards failed, most misses first."""
    rows = [r for r in records if r["kind"] == "specialized" and r["misses"]]
    rows.sort(key=lambda r: (-r["misses"], -r["hits"], r["file"], r["line"] or 0))
    return rows


def troubled_sites(records):
    """Adaptive sites that failed to specialize or deoptimized, most attempts first."""
    rows = [r for r in records if r["kind"] == "adaptive" and (r["failure"] or r["backoff"])]
    rows.sort(key=lambda r: (-r["backoff"], r["file"], r["line"] or 0, r["offset"]))
    return rows


def format_top_sites(records, top=10, *, cwd=None):
    """The ``--stats`` section of the ``top`` sites by misses and by failures, with
    file:line:column; '' for top 0."""
    if top <= 0:
        return ""
    if cwd is None:
        cwd = os.getcwd()
    out = []
    w = out.append
    missing = missing_sites(records)
    if missing:
        w("sites with the most misses (top %d of %d; misses since the site last specialized)"
          % (min(top, len(missing)), len(missing)))
        w("  %8s %11s  %-36s %s" % ("misses", "hits", "form", "site (function)"))
        for r in missing[:top]:
            w("  %8s %11s  %-36s %s (%s)" % (format(r["misses"], ","), format(r["hits"], ","),
                                             r["form"], _where(r, cwd), r["function"]))
            if r.get("advice"):
                w("           -> %s" % r["advice"])
    else:
        w("sites with misses: none")
    w("")
    troubled = troubled_sites(records)
    if troubled:
        w("sites that failed to specialize or deoptimized (top %d of %d; backoff counts both)"
          % (min(top, len(troubled)), len(troubled)))
        w("  %7s  %-16s %-40s %s" % ("backoff", "instruction", "site (function)",
                                     "last failure"))
        for r in troubled[:top]:
            w("  %7d  %-16s %-40s %s" % (r["backoff"], r["instruction"],
                                         "%s (%s)" % (_where(r, cwd), r["function"]),
                                         r["failure"] or "deoptimized, warming up again"))
            if r.get("advice"):
                w("           -> %s" % r["advice"])
    else:
        w("sites that failed to specialize or deoptimized: none")
    return "\n".join(out) + "\n"
