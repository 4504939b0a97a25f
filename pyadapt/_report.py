"""What pyadapt did to a program, for people: the ``--stats`` table and the HTML report.

``format_stats(stats)`` turns ``pyadapt.stats()`` into the table ``python -m pyadapt --stats``
prints at exit.  ``report(directory)`` (``--report DIR``) writes one self-contained HTML page
per source file that pyadapt compiled code from, with every instruction of a specializable
family coloured on its exact source span (the code object's position table) by how it
specialized, and the details on hover; and ``index.html``, listing the files.

Everything is read from pyadapt's live state: ``pyadapt._core._compiled_codes()`` (every code
object that has a unit and is still alive) and ``get_instructions`` (each site as it is now:
its form, its hits since it specialized, its counter, its last failure).  pyadapt keeps no
time per file, so the index orders files by a count of executed instructions, explained on
the page.
"""
import fnmatch
import hashlib
import html
import os
import re
import sys
import textwrap
import time
import tokenize
from collections import namedtuple

from . import _advice
from . import _pyadapt as _core, _word
from ._introspect import get_instructions, stats as _stats
from ._pyadapt import ffi, lib
from ._sites import (deopt_pending as _deopt_pending, is_own_file as _own, seen_at as _seen_at,
                     specializable_families as _specializable_families)

__all__ = ["format_stats", "report", "STATUSES"]


def _fmt(n):
    return format(n, ",")


def _rate(hits, total):
    return "%.1f%%" % (100.0 * hits / total) if total else "-"


def _config():
    c = lib.pa_config
    return {"specialize": bool(c.specialize), "warmup": c.warmup,
            "miss_budget": c.miss_budget}


def _mode_text(config):
    if not config["specialize"]:
        return "generic mode: specialization off"
    return "adaptive, warmup %d, miss budget %d" % (config["warmup"], config["miss_budget"])


# ---------------------------------------------------------------------------------------------
# --stats: the text table

def _family_rows(s):
    """(family, counts, executions) for the families that ran adaptive or specialized forms
    or tried to specialize, busiest first."""
    rows = []
    for name, fam in s["families"].items():
        executions = fam["hits"] + fam["misses"] + fam["deferred"]
        if executions or fam["specialized"] or fam["failures"]:
            rows.append((name, fam, executions))
    rows.sort(key=lambda r: (-r[2], r[0]))
    return rows


def _failure_rows(s):
    rows = [(n, family, kind) for family, fam in s["families"].items()
            for kind, n in fam["failure_kinds"].items() if n]
    rows.sort(key=lambda r: (-r[0], r[1], r[2]))
    return rows


def _form_rows(s):
    rows = [(name, f) for name, f in s["specialized"].items()
            if f["hits"] or f["misses"] or f["deopts"]]
    rows.sort(key=lambda r: (-(r[1]["hits"] + r[1]["misses"]), r[0]))
    return rows


HIT_RATE_TEXT = ("hit rate = hits / (hits + misses + deferred): of the family's executions in "
                 "an adaptive or specialized form, the share that took a specialized fast path "
                 "(deferred: adaptive executions while warming up or backing off; misses: a "
                 "specialized form's guard failed and the generic path ran)")


def format_stats(s=None, *, top=15, config=None):
    """The ``--stats`` summary of ``s`` (default: ``pyadapt.stats()`` now), as text."""
    if s is None:
        s = _stats()
    if config is None:
        config = _config()
    out = []
    w = out.append
    fallbacks = s["fallbacks"]
    total_fallbacks = sum(fallbacks.values())
    w("pyadapt statistics (%s)" % _mode_text(config))
    w("")
    if s["instructions"] is not None:     # a build with PYADAPT_COUNT_INSTRUCTIONS=1
        w("  %-32s %15s" % ("instructions executed", _fmt(s["instructions"])))
    w("  %-32s %15s" % ("frames evaluated", _fmt(s["frames"])))
    w("  %-32s %15s" % ("calls inlined", _fmt(s["inlined_calls"])))
    w("  %-32s %15s" % ("code objects compiled", _fmt(s["compiled"])))
    w("  %-32s %15s" % ("frames run by CPython's loop", _fmt(total_fallbacks)))
    for reason, n in sorted(fallbacks.items(), key=lambda kv: (-kv[1], kv[0])):
        w("    %-30s %15s" % (reason, _fmt(n)))
    w("")

    rows = _family_rows(s)
    if rows:
        w("families (busiest first, top %d of %d)" % (min(top, len(rows)), len(rows)))
        w("  %-16s %13s %10s %10s %9s %12s %9s %7s" % (
            "family", "hits", "misses", "deferred", "hit rate", "specialized", "failures",
            "deopts"))
        for name, fam, executions in rows[:top]:
            w("  %-16s %13s %10s %10s %9s %12s %9s %7s" % (
                name, _fmt(fam["hits"]), _fmt(fam["misses"]), _fmt(fam["deferred"]),
                _rate(fam["hits"], executions), _fmt(fam["specialized"]),
                _fmt(fam["failures"]), _fmt(fam["deopts"])))
        w(textwrap.fill(HIT_RATE_TEXT, 92, initial_indent="  ", subsequent_indent="    "))
    elif not config["specialize"]:
        w("families: none ran an adaptive or specialized form (generic mode)")
    else:
        w("families: none ran an adaptive or specialized form")
    w("")

    forms = _form_rows(s)
    if forms:
        w("specialized forms (top %d of %d)" % (min(top, len(forms)), len(forms)))
        w("  %-42s %13s %8s %7s" % ("form", "hits", "misses", "deopts"))
        for name, f in forms[:top]:
            w("  %-42s %13s %8s %7s" % (name, _fmt(f["hits"]), _fmt(f["misses"]),
                                        _fmt(f["deopts"])))
        w("")

    failures = _failure_rows(s)
    if failures:
        w("failed specializations by kind (top %d of %d)" % (min(top, len(failures)),
                                                            len(failures)))
        w("  %9s  %-16s %s" % ("attempts", "family", "kind"))
        for n, family, kind in failures[:top]:
            w("  %9s  %-16s %s" % (_fmt(n), family, kind))
    else:
        w("failed specializations: none")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------
# The sites: each instruction of a specializable family, with its status

# status -> (legend label, longer explanation).  Order: how bad, worst first; a source
# span shared by several sites shows the worst status among them.  Only the first three
# are problems (a page's "sites to fix"); a status this file does not know is shown
# neutrally, never as a problem.
STATUSES = {
    "failed": ("specialization failed",
               "the last attempt to specialize failed: hover for what it saw (operand types, "
               "the callable's or attribute's kind) and, where there is one, the change that "
               "would let it specialize; it backs off before trying again"),
    "deopt": ("deoptimized / polymorphic",
              "specialized, then its guards failed until it went back to its adaptive form "
              "(a deopt): it is backing off, or it met several types in turn; hover for the "
              "deopts and the types seen"),
    "missing": ("specialized, guards failing",
                "specialized, but at least 5% of its executions here failed the guards and "
                "ran the generic path; after the miss budget it deoptimizes"),
    "specialized": ("specialized",
                    "specialized, and its guards hold (hits at the site on hover)"),
    "few": ("ran too few times to specialize",
            "executed fewer times than the warmup before an attempt (code that runs once, "
            "such as a module's top level or a class body): not a problem"),
    "generic": ("generic (specialization off)",
                "a specializable instruction in its generic form: generic mode"),
    "cold": ("not executed",
             "adaptive and not executed since it was compiled (or since it last "
             "deoptimized)"),
}
PROBLEMS = ("failed", "deopt", "missing")
_SEVERITY = {name: i for i, name in enumerate(STATUSES)}
_NO_SEEN = {"attempts": 0, "deopts": 0, "seen": [], "unseen": 0}

Site = namedtuple("Site", "ins qualname status misses backoff seen deopts")


def _status(ins, config, seen=_NO_SEEN):
    """(status, misses at the site, backoff exponent, deopts) of one instruction."""
    raw = ins.caches[_word.COUNTER][1] if ins.caches else 0
    backoff = _word.backoff(raw)
    deopts = seen["deopts"] + _deopt_pending(ins)
    polymorphic = len({tuple(e["types"]) for e in seen["seen"]}) > 1
    if ins.kind == "specialized":
        misses = max(config["miss_budget"] - ins.counter, 0)
        if deopts and polymorphic:
            return "deopt", misses, backoff, deopts
        if misses and misses * 20 >= ins.hits + misses:
            return "missing", misses, backoff, deopts
        return "specialized", misses, backoff, deopts
    if ins.kind == "adaptive":
        if ins.failure is not None:
            return "failed", 0, backoff, deopts
        if deopts:
            return "deopt", 0, backoff, deopts
        if ins.counter == config["warmup"] and not backoff:
            return "cold", 0, backoff, deopts
        return "few", 0, backoff, deopts
    return "generic", 0, backoff, deopts


def _weight(site):
    """How much a site to fix costs, roughly: the executions it ran off the fast path, at
    least (a backoff of b after failures means about 2**b executions; after deopts, 16 times
    that; a specialized site, its misses)."""
    if site.status == "failed":
        return 1 << site.backoff
    if site.status == "deopt":
        return (16 << site.backoff) + site.misses
    return site.misses


def _explain(site):
    ins = site.ins
    return _advice.explain(ins.family, ins.argrepr, ins.failure, site.seen["seen"],
                           site.deopts, specialized=site.status == "missing")


def _hover(sites, s, config):
    """The hover text of one source span: every site on it."""
    parts = []
    for site in sites[:6]:
        ins = site.ins
        p = ins.positions
        lines = ["%s  (family %s)" % (ins.opname, ins.family),
                 "%s: %s" % (STATUSES.get(site.status, (site.status,))[0],
                             _detail(site, config))]
        if ins.kind == "specialized":
            lines.append("hits at this site: %s (since it specialized)" % _fmt(ins.hits))
            lines.append("misses at this site: %s (deopt after %d)"
                         % (_fmt(site.misses), config["miss_budget"]))
            form = s["specialized"].get(ins.opname)
            if form:
                lines.append("all %s sites: %s hits, %s misses, %s deopts" % (
                    ins.opname, _fmt(form["hits"]), _fmt(form["misses"]),
                    _fmt(form["deopts"])))
        if ins.failure is not None:
            lines.append("last failure: %s" % ins.failure)
        if site.deopts:
            lines.append("deopts at this site: %d" % site.deopts)
        held = [e["types"][0] for e in site.seen["seen"] if e["specialized"] and e["types"]]
        if ins.kind == "specialized" and len(set(held)) > 1:
            lines.append("polymorphic: %s holds %s" % (ins.opname, ", ".join(
                dict.fromkeys(held))))
        if site.status in PROBLEMS or site.deopts:
            saw = _advice.describe_seen(ins.family, site.seen["seen"])
            if saw:
                lines.append("what it saw (%d attempts):" % site.seen["attempts"])
                lines.extend("  " + line for line in saw)
            advice = _explain(site)[1]
            if advice:
                lines.append("to specialize: " + advice)
        fam = s["families"].get(ins.family)
        if fam and (fam["specialized"] or fam["failures"]):
            lines.append("family %s: %s specializations, %s failed attempts" % (
                ins.family, _fmt(fam["specialized"]), _fmt(fam["failures"])))
        lines.append("in %s, %s (pyadapt offset %d)" % (site.qualname, _where(p), ins.offset))
        parts.append("\n".join(lines))
    if len(sites) > 6:
        parts.append("... and %d more sites on this span" % (len(sites) - 6))
    return "\n\n".join(parts)


def _where(p):
    where = "line %d" % p.lineno
    if p.end_lineno is not None and p.end_lineno != p.lineno:
        where += "-%d" % p.end_lineno
    if p.col_offset is not None:
        where += ", columns %d-%d" % (p.col_offset, p.end_col_offset)
    return where


def _detail(site, config):
    ins = site.ins
    if site.status in ("specialized", "missing"):
        return "guards hold" if not site.misses else "%s misses" % _fmt(site.misses)
    if site.status == "failed":
        return "%s; next attempt in %d executions (backoff %d)" % (
            ins.failure, ins.counter, site.backoff)
    if site.status == "deopt":
        if ins.kind == "specialized":
            return "%s now, after %d deopts" % (ins.opname, site.deopts)
        return "deoptimized %s; next attempt in %d executions (backoff %d)" % (
            _advice.times(site.deopts), ins.counter, site.backoff)
    if site.status == "few":
        return "ran %d of the %d executions before an attempt" % (
            config["warmup"] - ins.counter, config["warmup"] + 1)
    if site.status == "cold":
        return "countdown %d, untouched" % ins.counter
    return "generic mode: nothing specializes"


# ---------------------------------------------------------------------------------------------
# Source files and the painting of spans

class _FileInfo:
    def __init__(self, filename):
        self.filename = filename
        self.codes = []          # (code, qualname)
        self.sites = []          # Site
        self.entries = 0         # frames entered (unit entries), all its code objects
        self.hits = 0            # hits of its specialized sites
        self.counts = dict.fromkeys(STATUSES, 0)
        self.functions = []      # (qualname, firstlineno, entries, hits, specialized, sites)

    @property
    def activity(self):
        return self.hits + self.entries


def _entries(code):
    addr = _core.unit_address(code)
    if not addr:
        return 0
    return ffi.cast("pa_unit *", addr).entries


def _collect(codes, config, families, sources=(), only=None):
    files = {}
    skipped = {}
    for code in codes:
        filename = code.co_filename
        if not filename or _own(filename):
            continue
        if only is not None and not _selected(filename, only):
            continue
        if filename not in sources and not os.path.isfile(filename):
            skipped[filename] = skipped.get(filename, 0) + 1
            continue
        info = files.get(filename)
        if info is None:
            info = files[filename] = _FileInfo(filename)
        qualname = getattr(code, "co_qualname", code.co_name)
        instructions = get_instructions(code)
        seen_by_offset = _seen_at(code)
        entries = _entries(code)
        hits = specialized = nsites = 0
        for ins in instructions:
            if ins.kind == "super" or ins.family not in families:
                continue
            if ins.positions is None or ins.positions.lineno is None:
                continue
            seen = seen_by_offset.get(ins.offset, _NO_SEEN)
            status, misses, backoff, deopts = _status(ins, config, seen)
            info.sites.append(Site(ins, qualname, status, misses, backoff, seen, deopts))
            info.counts[status] = info.counts.get(status, 0) + 1
            nsites += 1
            hits += ins.hits
            specialized += status in ("specialized", "missing")
        info.codes.append((code, qualname))
        info.entries += entries
        info.hits += hits
        info.functions.append((qualname, code.co_firstlineno, entries, hits, specialized,
                               nsites))
    return files, skipped


def _selected(filename, only):
    """Whether ``filename`` is among the paths of ``only``: a file, a directory (every file
    under it) or a glob pattern (fnmatch's: ``*`` crosses directories), all absolute."""
    path = os.path.abspath(filename)
    for pattern in only:
        if path == pattern or path.startswith(pattern.rstrip(os.sep) + os.sep):
            return True
        if fnmatch.fnmatchcase(path, pattern):
            return True
    return False


# The groups of the index, in order: the user's own code first.
GROUPS = (
    ("program", "Your program", "the program's own files: its directory (or, for -m, -c and "
                                "standard input, the current directory) and what is under it"),
    ("site-packages", "Installed packages", "site-packages and dist-packages"),
    ("stdlib", "The standard library", "the interpreter's own library"),
    ("other", "Other code", "files anywhere else"),
)


def _group_of(filename, roots, stdlib_dirs):
    if not os.path.isabs(filename):          # <string> (-c), <stdin>: the program itself
        return "program"
    parts = filename.split(os.sep)
    if "site-packages" in parts or "dist-packages" in parts:
        return "site-packages"
    for d in stdlib_dirs:
        if filename.startswith(d + os.sep):
            return "stdlib"
    for root in roots:
        if filename.startswith(root.rstrip(os.sep) + os.sep):
            return "program"
    return "other"


def _stdlib_dirs():
    import sysconfig

    dirs = set()
    for scheme_key in ("stdlib", "platstdlib"):
        path = sysconfig.get_paths().get(scheme_key)
        if path:
            dirs.add(os.path.realpath(path))
            dirs.add(os.path.abspath(path))
    return sorted(dirs)


def _read_source(filename):
    try:
        with tokenize.open(filename) as f:      # the coding cookie, universal newlines
            text = f.read()
    except (OSError, SyntaxError, UnicodeDecodeError):
        try:
            with open(filename, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError:
            return None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _char_col(line, byte_col, cache):
    """Column offsets in the position table count UTF-8 bytes; the page counts characters."""
    if line.isascii():
        return min(byte_col, len(line))
    data = cache.get(line)
    if data is None:
        data = cache[line] = line.encode("utf-8")
    return len(data[:byte_col].decode("utf-8", "ignore"))


def _paint(lines, sites):
    """Per character of each line, the span (a key of the returned groups) that colours it.

    Sites are grouped by their exact span; the spans are painted from the largest to the
    smallest, so where expressions nest the innermost one wins.  A span over several lines
    (a for statement, a call written over several lines) paints its first line only, from its
    start to the end of that line's text, so that a loop does not colour its whole body.
    """
    groups = {}
    for site in sites:
        p = site.ins.positions
        key = (p.lineno, p.end_lineno if p.end_lineno is not None else p.lineno,
               p.col_offset, p.end_col_offset)
        groups.setdefault(key, []).append(site)
    owners = [None] * len(lines)
    cache = {}
    painted = []
    for key in groups:
        line0, line1, col0, col1 = key
        if not 1 <= line0 <= len(lines):
            continue
        text = lines[line0 - 1]
        end_of_text = len(text.rstrip())
        if col0 is None:
            start = len(text) - len(text.lstrip())
        else:
            start = _char_col(text, col0, cache)
        if line1 == line0 and col1 is not None:
            end = _char_col(text, col1, cache)
        else:
            end = end_of_text
        if end <= start:
            continue
        size = (line1 - line0, end - start)
        painted.append((size, line0, start, end, key))
    painted.sort(key=lambda t: (-t[0][0], -t[0][1], t[1], t[2]))
    for _size, line0, start, end, key in painted:
        row = owners[line0 - 1]
        if row is None:
            row = owners[line0 - 1] = [None] * len(lines[line0 - 1])
        row[start:end] = [key] * (end - start)
    return groups, owners


def _group_status(sites):
    executed = [s for s in sites if s.status != "cold"]
    pool = executed or sites
    return min(pool, key=lambda s: _SEVERITY.get(s.status, len(_SEVERITY))).status


def _render_line(text, row, styles, ids=None, placed=None):
    """The HTML of one source line; the first chunk of a span whose key is in ``ids`` gets
    that id (the target of a "sites to fix" link), once (``placed`` remembers)."""
    if row is None:
        return html.escape(text, quote=False)
    out = []
    i = 0
    n = len(text)
    previous = None
    while i < n:
        key = row[i]
        j = i + 1
        while j < n and row[j] == key:
            j += 1
        chunk = html.escape(text[i:j], quote=False)
        if key is None:
            out.append(chunk)
        else:
            status, title = styles[key]
            cls = "pa s-" + status
            if previous is not None:
                cls += " adj"      # touches another coloured span: a thin divider
            anchor = ""
            if ids and key in ids and key not in placed:
                placed.add(key)
                anchor = ' id="%s"' % ids[key]
            out.append('<span class="%s"%s title="%s">%s</span>' % (cls, anchor, title, chunk))
        previous = key
        i = j
    return "".join(out)


def _attr(text):
    return html.escape(text, quote=True).replace("\n", "&#10;")


# ---------------------------------------------------------------------------------------------
# HTML

_CSS = """
:root { --ok:#a8e6a1; --ok-b:#3f9a37; --miss:#e2c2ff; --miss-b:#8a4cc2; --fail:#ffb0a8;
  --fail-b:#d0402f; --deopt:#ffc77d; --deopt-b:#d07a00; --few:#dfe9f3; --few-b:#9db3c8;
  --gen:#d9d9d9; --gen-b:#8c8c8c; --cold:#eeeeee; --cold-b:#bdbdbd; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0;
  color: #1d1d1f; background: #fafafa; }
header { background: #24292f; color: #f6f8fa; padding: 10px 20px; }
header h1 { font-size: 17px; margin: 0; font-weight: 600; word-break: break-all; }
header .sub { font-size: 12px; color: #b8c0c8; margin-top: 2px; }
header a { color: #9ecbff; }
main { padding: 12px 20px 40px; }
.cards { display: flex; flex-wrap: wrap; gap: 10px; margin: 6px 0 12px; }
.card { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: 6px 12px;
  min-width: 120px; }
.card .v { font-size: 18px; font-weight: 600; font-variant-numeric: tabular-nums; }
.card .k { font-size: 11px; color: #666; text-transform: uppercase; letter-spacing: .03em; }
.legend { display: flex; flex-wrap: wrap; gap: 6px 16px; margin: 8px 0 12px; font-size: 13px; }
.legend .sw { display: inline-block; padding: 0 6px; border-radius: 3px; margin-right: 5px;
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.legend .n { color: #555; font-variant-numeric: tabular-nums; }
table.t { border-collapse: collapse; background: #fff; margin: 6px 0 14px; font-size: 13px; }
table.t th, table.t td { border: 1px solid #e1e1e1; padding: 3px 9px; text-align: right;
  font-variant-numeric: tabular-nums; }
table.t th { background: #f0f2f4; font-weight: 600; }
table.t tr.group th { background: #e4e9ef; font-size: 13.5px; }
table.t tr.group .n { font-weight: normal; color: #555; }
table.t td.l, table.t th.l { text-align: left; }
table.t td.mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.bar { display: inline-block; height: 9px; background: #3f9a37; vertical-align: middle;
  border-radius: 2px; }
details { margin: 4px 0 10px; }
summary { cursor: pointer; color: #333; font-weight: 600; }
p.note { color: #555; font-size: 12.5px; max-width: 980px; }
pre.src { font: 13px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono",
  monospace; background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: 8px 0;
  overflow-x: auto; tab-size: 8; margin: 0; }
pre.src .line { display: block; padding-right: 16px; min-height: 1.5em; }
pre.src .line:target { background: #fff6cc; }
pre.src .ln { display: inline-block; width: 5.5em; padding-right: 1em; text-align: right;
  color: #9a9a9a; user-select: none; text-decoration: none; }
pre.src .ln:hover { color: #333; }
.pa { border-radius: 2px; cursor: help; }
.pa.adj { box-shadow: inset 1px 0 0 rgba(0,0,0,.28); }
.s-specialized { background: var(--ok); }
.s-missing { background: var(--miss); }
.s-failed { background: var(--fail); }
.s-deopt { background: var(--deopt); }
.s-few { background: var(--few); }
tr.fix td:first-child { border-left: 5px solid var(--gen-b); }
tr.fix.f-failed td:first-child { border-left-color: var(--fail-b); }
tr.fix.f-deopt td:first-child { border-left-color: var(--deopt-b); }
tr.fix.f-missing td:first-child { border-left-color: var(--miss-b); }
table.fixes td { max-width: 420px; }
.pa:target, .pa.sel { outline: 2px solid #d0402f; outline-offset: 1px; }
.s-generic { background: var(--gen); }
.s-cold { background: var(--cold); }
.pa:hover { outline: 1px solid #333; }
#panel { position: fixed; right: 14px; bottom: 14px; max-width: 560px; background: #24292f;
  color: #f6f8fa; font: 12px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  white-space: pre-wrap; padding: 8px 12px; border-radius: 6px; opacity: .95;
  box-shadow: 0 2px 10px rgba(0,0,0,.3); }
#panel[hidden] { display: none; }
"""

_JS = """
(function () {
  var panel = document.getElementById('panel');
  if (!panel) return;
  var selected = null;
  function show(t) {
    panel.textContent = t.getAttribute('title');
    panel.hidden = false;
  }
  document.addEventListener('mouseover', function (e) {
    var t = e.target.closest ? e.target.closest('.pa') : null;
    if (t) { show(t); }
  });
  // a link to a site (#S3, from the sites to fix) shows its details as hovering does
  function fromHash() {
    var t = location.hash ? document.getElementById(location.hash.slice(1)) : null;
    if (selected) { selected.classList.remove('sel'); selected = null; }
    if (t && t.classList.contains('pa')) { show(t); t.classList.add('sel'); selected = t; }
  }
  window.addEventListener('hashchange', fromHash);
  fromHash();
})();
"""


def _page(title, header, body, script=False):
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"generator\" content=\"pyadapt\">\n"
            "<title>%s</title>\n<style>%s</style>\n</head>\n<body>\n<header>%s</header>\n"
            "<main>\n%s\n</main>\n%s</body>\n</html>\n") % (
        html.escape(title), _CSS, header, body,
        ("<div id=\"panel\" hidden></div>\n<script>%s</script>\n" % _JS) if script else "")


def _cards(items):
    return "<div class=\"cards\">%s</div>" % "".join(
        "<div class=\"card\"><div class=\"v\">%s</div><div class=\"k\">%s</div></div>"
        % (html.escape(v), html.escape(k)) for k, v in items)


def _legend(counts=None):
    items = []
    for status, (label, explanation) in STATUSES.items():
        n = "" if counts is None else " <span class=\"n\">(%s)</span>" % _fmt(counts[status])
        items.append("<span title=\"%s\"><span class=\"sw s-%s\">x.y</span>%s%s</span>"
                     % (_attr(explanation), status, html.escape(label), n))
    return "<div class=\"legend\">%s</div>" % "".join(items)


def _page_name(filename):
    base = re.sub(r"[^A-Za-z0-9_.-]", "_", os.path.basename(filename)) or "source"
    digest = hashlib.sha1(filename.encode("utf-8", "surrogateescape")).hexdigest()[:8]
    return "%s-%s.html" % (base, digest)


def _file_page(info, lines, s, config):
    groups, owners = _paint(lines, info.sites)
    styles = {key: (_group_status(sites), _attr(_hover(sites, s, config)))
              for key, sites in groups.items()}
    fix_table, ids = _sites_to_fix(groups, owners)
    nsites = len(info.sites)
    cards = _cards([
        ("frames entered", _fmt(info.entries)),
        ("specialized hits", _fmt(info.hits)),
        ("specializable sites", _fmt(nsites)),
        ("specialized now", _fmt(info.counts["specialized"] + info.counts["missing"])),
        ("failed", _fmt(info.counts["failed"])),
        ("sites to look at", _fmt(sum(info.counts[k] for k in PROBLEMS))),
        ("code objects", _fmt(len(info.codes))),
    ])
    funcs = sorted(info.functions, key=lambda f: (-(f[2] + f[3]), f[1], f[0]))
    rows = "".join(
        "<tr><td class=\"l mono\"><a href=\"#L%d\">%s</a></td><td>%d</td><td>%s</td>"
        "<td>%s</td><td>%s / %s</td></tr>" % (
            first, html.escape(q), first, _fmt(ent), _fmt(hits), _fmt(spec), _fmt(n))
        for q, first, ent, hits, spec, n in funcs)
    table = ("<details%s><summary>Code objects (%d)</summary><table class=\"t\"><tr>"
             "<th class=\"l\">code object</th><th>line</th><th>frames entered</th>"
             "<th>specialized hits</th><th>specialized / sites</th></tr>%s</table></details>"
             % (" open" if len(funcs) <= 12 else "", len(funcs), rows))
    width = len(str(len(lines)))
    src = []
    placed = set()
    for number, text in enumerate(lines, 1):
        src.append("<span class=\"line\" id=\"L%d\"><a class=\"ln\" href=\"#L%d\">%*d</a>%s"
                   "</span>" % (number, number, width, number,
                                _render_line(text, owners[number - 1], styles, ids, placed)))
    note = ("<p class=\"note\">Each instruction of a family that can specialize is coloured on "
            "its source span (from the code object's position table); where expressions "
            "nest, the innermost one shows. Hover a span (or follow a link of the sites to "
            "fix) for the instruction, its family, the hits and misses at the site, the last "
            "failure, what it saw and what to change. Counts are live: a site's "
            "hits count since it last specialized. Code pyadapt never ran (a function never "
            "called) has no colours. Mode: %s.</p>" % html.escape(
                _mode_text(config)))
    header = ("<h1>%s</h1><div class=\"sub\"><a href=\"index.html\">&larr; all files</a> "
              "&middot; pyadapt specialization report</div>" % html.escape(info.filename))
    body = (cards + _legend(info.counts) + note + fix_table + table
            + "<pre class=\"src\">%s</pre>" % "".join(src))
    return _page("pyadapt: " + os.path.basename(info.filename), header, body, script=True)


def _sites_to_fix(groups, owners):
    """The page's table of sites to fix (failed, deoptimized, missing), costliest first, each
    linked to its span; and {span key: id} for the spans the links point to."""
    rows = []
    for key, sites in groups.items():
        line0 = key[0]
        if not 1 <= line0 <= len(owners) or owners[line0 - 1] is None \
                or key not in owners[line0 - 1]:
            continue        # not painted (an empty span): nothing to link to
        for site in sites:
            if site.status in PROBLEMS:
                rows.append((site, key))
    if not rows:
        return ("<h2 id=\"fix\">Sites to fix</h2><p class=\"note\">None: every site that "
                "ran often enough specialized and its guards hold.</p>"), {}
    rows.sort(key=lambda r: (-_weight(r[0]), r[1]))
    ids = {}
    fixable, unfixable = [], []
    for site, key in rows:
        anchor = ids.setdefault(key, "S%d" % (len(ids) + 1))
        ins = site.ins
        saw, advice = _explain(site)
        what = STATUSES[site.status][0]
        if site.status == "failed":
            what += ": " + ins.failure
        elif site.deopts:
            what += ": deoptimized " + _advice.times(site.deopts)
        elif site.status == "missing":
            what += ": %s misses, %s hits" % (_fmt(site.misses), _fmt(ins.hits))
        (fixable if advice else unfixable).append(
            "<tr class=\"fix f-%s\"><td class=\"l mono\"><a href=\"#%s\">line %d:%d</a></td>"
            "<td class=\"l mono\">%s</td><td class=\"l mono\">%s</td><td class=\"l\">%s</td>"
            "<td class=\"l\">%s</td><td class=\"l\">%s</td></tr>" % (
                site.status, anchor, ins.positions.lineno, ins.positions.col_offset or 0,
                html.escape(site.qualname), html.escape(ins.family), html.escape(what),
                html.escape(saw or "-"),
                html.escape(advice or "no specialized form for what it saw")))
    head = ("<table class=\"t fixes\"><tr><th class=\"l\">where</th><th class=\"l\">in</th>"
            "<th class=\"l\">instruction</th><th class=\"l\">what happened</th>"
            "<th class=\"l\">what it saw</th><th class=\"l\">%s</th></tr>%s</table>")
    table = "<h2 id=\"fix\">Sites to fix (%d)</h2>" % len(fixable)
    if fixable:
        table += head % ("what would let it specialize", "".join(fixable))
        table += ("<p class=\"note\">Costliest first: failed and deoptimized sites by their "
                  "backoff (each failed attempt, and each deopt of a form with fewer than twice "
                  "as many hits as misses, doubles the wait before the next attempt), "
                  "specialized ones by their misses.</p>")
    else:
        table += "<p class=\"note\">None with a change to make.</p>"
    if unfixable:
        table += ("<details><summary>Sites that did not specialize, with nothing to change "
                  "(%d)</summary>%s<p class=\"note\">pyadapt has no specialized form for what "
                  "these sites saw (a list times an int, an iterator over a dict, ...).</p>"
                  "</details>" % (len(unfixable), head % ("why there is no change to make",
                                                          "".join(unfixable))))
    return table, ids


def _families_table(s):
    rows = _family_rows(s)
    if not rows:
        return "<p class=\"note\">No family ran an adaptive or specialized form.</p>"
    body = "".join(
        "<tr><td class=\"l mono\">%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td>"
        "<td>%s</td><td>%s</td><td>%s</td></tr>" % (
            name, _fmt(f["hits"]), _fmt(f["misses"]), _fmt(f["deferred"]),
            _rate(f["hits"], ex), _fmt(f["specialized"]), _fmt(f["failures"]),
            _fmt(f["deopts"]))
        for name, f, ex in rows)
    fails = _failure_rows(s)
    fail_table = ""
    if fails:
        fail_table = ("<table class=\"t\"><tr><th>attempts</th><th class=\"l\">family</th>"
                      "<th class=\"l\">failure kind</th></tr>%s</table>" % "".join(
                          "<tr><td>%s</td><td class=\"l mono\">%s</td><td class=\"l\">%s</td>"
                          "</tr>" % (_fmt(n), fam, html.escape(kind))
                          for n, fam, kind in fails))
    return ("<table class=\"t\"><tr><th class=\"l\">family</th><th>hits</th><th>misses</th>"
            "<th>deferred</th><th>hit rate</th><th>specialized</th><th>failures</th>"
            "<th>deopts</th></tr>%s</table><p class=\"note\">%s</p>%s"
            % (body, html.escape(HIT_RATE_TEXT), fail_table))


def _index_page(infos, pages, skipped, s, config, *, program=None, only=None,
                groups=None):
    total = sum(i.activity for i in infos) or 1
    fallbacks = s["fallbacks"]
    counted = [] if s["instructions"] is None else [   # a PYADAPT_COUNT_INSTRUCTIONS=1 build
        ("instructions executed", _fmt(s["instructions"]))]
    cards = _cards(counted + [
        ("frames evaluated", _fmt(s["frames"])),
        ("calls inlined", _fmt(s["inlined_calls"])),
        ("code objects compiled", _fmt(s["compiled"])),
        ("frames run by CPython", _fmt(sum(fallbacks.values()))),
        ("source files", _fmt(len(infos))),
    ])
    fb = _fallbacks_text(fallbacks)
    rows = []
    groups = groups or {}
    current = None
    for info in infos:
        group = groups.get(info.filename, "other")
        if group != current:
            current = group
            label, explanation = next((g[1], g[2]) for g in GROUPS if g[0] == group)
            n = sum(1 for i in infos if groups.get(i.filename, "other") == group)
            rows.append("<tr class=\"group\" id=\"g-%s\"><th class=\"l\" colspan=\"11\">%s "
                        "<span class=\"n\">(%d %s: %s)</span></th></tr>" % (
                            group, html.escape(label), n, "file" if n == 1 else "files",
                            html.escape(explanation)))
        share = info.activity / total
        c = info.counts
        fix = c.get("failed", 0) + c.get("deopt", 0) + c.get("missing", 0)
        rows.append(
            "<tr><td class=\"l mono\"><a href=\"%s\">%s</a></td><td>%.1f%%</td>"
            "<td class=\"l\"><span class=\"bar\" style=\"width:%dpx\"></span></td>"
            "<td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td>"
            "<td>%s</td></tr>" % (
                html.escape(pages[info.filename], quote=True), html.escape(
                    _display_name(info.filename, program)),
                100 * share, max(1, round(share * 120)) if info.activity else 0,
                _fmt(info.activity), _fmt(info.entries), _fmt(info.hits),
                _fmt(len(info.sites)), _fmt(c.get("specialized", 0) + c.get("missing", 0)),
                _fmt(c.get("failed", 0)),
                "<a href=\"%s#fix\">%s</a>" % (html.escape(pages[info.filename], quote=True),
                                                _fmt(fix)) if fix else "0",
                _fmt(len(info.codes))))
    files_table = ("<table class=\"t\"><tr><th class=\"l\">file</th><th>share</th><th></th>"
                   "<th>executed (lower bound)</th><th>frames entered</th>"
                   "<th>specialized hits</th><th>sites</th><th>specialized</th>"
                   "<th>failed</th><th>sites to look at</th><th>code objects</th></tr>%s"
                   "</table>" % "".join(rows))
    if only:
        files_table = ("<p class=\"note\">Limited to %s (--report-only).</p>" % html.escape(
            ", ".join(only))) + files_table
    proxy = ("<p class=\"note\"><b>How files are ordered.</b> Your program first, then "
             "installed packages, then the standard library; within each, by a share of the "
             "work. pyadapt measures no time per file. The share is a count of instructions executed in the file's code, and only "
             "a lower bound of it: the hits of its specialized sites (each hit is one execution "
             "of a specialized instruction, counted since that site last specialized) plus one "
             "per frame entered (its RESUME). Executions of generic and adaptive instructions "
             "are not counted per file, so in generic mode the share is the share of frames "
             "entered.</p>")
    skipped_html = ""
    if skipped:
        skipped_html = ("<details><summary>Code without a source file on disk (%d files, "
                        "not shown)</summary><ul>%s</ul></details>" % (
                            len(skipped), "".join(
                                "<li class=\"mono\">%s (%d code objects)</li>"
                                % (html.escape(f), n) for f, n in sorted(skipped.items()))))
    header = ("<h1>pyadapt specialization report</h1><div class=\"sub\">program: %s &middot; "
              "%s &middot; %s</div>" % (
                  html.escape(_program_text(program)), html.escape(
                      _mode_text(config)), time.strftime("%Y-%m-%d %H:%M:%S")))
    body = (cards + "<p class=\"note\">Fallbacks by reason: %s.</p>" % html.escape(fb)
            + "<h2>Files</h2>" + files_table + proxy + skipped_html
            + "<h2>Families</h2>" + _families_table(s) + "<h2>Colours</h2>" + _legend()
            + "<ul class=\"note\">%s</ul>" % "".join(
                "<li><b>%s</b>: %s</li>" % (html.escape(label), html.escape(expl))
                for label, expl in STATUSES.values()))
    return _page("pyadapt report", header, body)


_GENERATOR_MARK = "<meta name=\"generator\" content=\"pyadapt\">"

# Fallback reasons that say something went wrong; any other (tracing on, code a future
# pyadapt chose to run natively) is shown as a plain count, not as a problem.
PROBLEM_FALLBACKS = ("compile_failed", "unsupported", "foreign_eval_frame")


def _fallbacks_text(fallbacks):
    problems = [(k, v) for k, v in sorted(fallbacks.items()) if k in PROBLEM_FALLBACKS and v]
    others = [(k, v) for k, v in sorted(fallbacks.items()) if k not in PROBLEM_FALLBACKS and v]
    text = "problems: %s" % (", ".join("%s %s" % (k, _fmt(v)) for k, v in problems) or "none")
    if others:
        text += "; by design: %s" % ", ".join("%s %s" % (k, _fmt(v)) for k, v in others)
    return text


def _program_text(program):
    if not program:
        return " ".join(sys.argv) or "(no argv)"
    kind, target = program.get("kind"), program.get("target")
    args = " ".join(program.get("args") or ())
    shown = {"script": "%s", "module": "-m %s", "command": "-c %r", "stdin": "- (standard input)",
             "interactive": "the interactive console"}.get(kind, "%s")
    text = shown % target if "%" in shown else shown
    return (text + " " + args).strip()


def _display_name(filename, program):
    if filename == "<string>":
        return "<string> (the -c program)"
    if filename == "<stdin>":
        return "<stdin> (the program read from standard input)"
    return filename


def _program_roots(program):
    """Directories whose files are the program's own."""
    if program and program.get("kind") == "script" and program.get("path"):
        path = os.path.abspath(program["path"])
        return [path if os.path.isdir(path) else os.path.dirname(path)]
    if program and program.get("cwd"):
        return [program["cwd"]]
    return [os.getcwd()]


def _remove_stale_pages(directory, written):
    """Remove the pages an earlier report wrote here and this one did not: only .html files
    that carry pyadapt's generator mark (files pyadapt wrote itself), nothing else."""
    removed = []
    for name in os.listdir(directory):
        if not name.endswith(".html") or name in written:
            continue
        path = os.path.join(directory, name)
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                head = f.read(400)
        except OSError:
            continue
        if _GENERATOR_MARK in head and os.path.isfile(path):
            os.remove(path)
            removed.append(name)
    return removed


def report(directory, *, codes=None, program=None, only=None, sources=None):
    """Write the HTML report of what pyadapt compiled into ``directory``; return the path of
    its ``index.html``.

    One page per source file of the code objects pyadapt compiled and still alive (files not
    on disk are listed on the index, not shown, unless ``sources`` gives their text: the -c
    program's "<string>"); pyadapt's own modules are left out.  ``only``: absolute paths,
    directories or glob patterns, the files to give pages (--report-only).  ``program``: the
    launcher's description of the program (its kind, target, path and directory), which
    decides the index's first group.  Pages that an earlier report left in ``directory`` and
    this one did not write are removed (only pages pyadapt wrote).
    """
    if codes is None:
        codes = _core._compiled_codes()
    sources = dict(sources or {})
    s = _stats()
    config = _config()
    families = _specializable_families()
    files, skipped = _collect(codes, config, families, sources, only)
    os.makedirs(directory, exist_ok=True)
    roots = _program_roots(program)
    stdlib_dirs = _stdlib_dirs()
    infos = []
    pages = {}
    groups = {}
    for filename, info in files.items():
        if filename in sources:
            lines = sources[filename].split("\n")
            if lines and lines[-1] == "":
                lines.pop()
        else:
            lines = _read_source(filename)
        if lines is None:
            skipped[filename] = len(info.codes)
            continue
        name = _page_name(filename)
        pages[filename] = name
        groups[filename] = _group_of(filename, roots, stdlib_dirs)
        with open(os.path.join(directory, name), "w", encoding="utf-8") as f:
            f.write(_file_page(info, lines, s, config))
        infos.append(info)
    order = {g[0]: i for i, g in enumerate(GROUPS)}
    infos.sort(key=lambda i: (order[groups[i.filename]], -i.activity, i.filename))
    index = os.path.join(directory, "index.html")
    with open(index, "w", encoding="utf-8") as f:
        f.write(_index_page(infos, pages, skipped, s, config, program=program, only=only,
                            groups=groups))
    _remove_stale_pages(directory, set(pages.values()) | {"index.html"})
    return index
