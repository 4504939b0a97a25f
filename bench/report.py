"""The tables of a benchmark run, from its pyperf JSON files (see run.py).

    python -m bench --report bench/results/latest
    python -m bench.report bench/results/latest [--markdown]

Times are pyperf's median of all values and their standard deviation; every ratio is a ratio
of medians from the same run.  A ratio below 1 means the first named is faster:
adaptive/native 0.80 is pyadapt adaptive taking 80% of native CPython 3.11's time.
"""
import json
import math
import os
import statistics
import sys

MODE_FILES = ("native-3.10", "native", "generic", "adaptive")
# the standard suite (pyperformance's scripts, bench/standard.py): pyperformance-native.json, ...
STANDARD_PREFIX = "pyperformance-"
RUN_INFO = "run.json"


def write_run_info(out, info):
    info = dict(info)
    info.setdefault("date", _now())
    info.setdefault("machine", machine())
    with open(os.path.join(out, RUN_INFO), "w") as f:
        json.dump(info, f, indent=2)


def _now():
    import datetime

    return datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")


def machine():
    model = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return "%d cores (%s), shared" % (os.cpu_count() or 0, model)


def _load(path):
    """A pyperf suite from path (or path + ".gz", as kept in bench/reference/), or None."""
    import pyperf

    for p in (path, path + ".gz"):
        if os.path.exists(p):
            return pyperf.BenchmarkSuite.load(p)
    return None


def _run_meta(bench, key):
    """Median over the runs that recorded `key` (values are per workload call)."""
    vals = [r.get_metadata()[key] for r in bench.get_runs() if key in r.get_metadata()]
    return statistics.median(vals) if vals else None


# pyadapt's counters as pyperf's hook records them (pyadapt/_pyperf_hook.py): sums over the
# timed calls of a worker, made per benchmark iteration here
_COUNTER_KEYS = ("instructions", "specialized", "hits", "misses", "deopts", "fallbacks", "frames")


def _per_iteration(bench, key):
    """Median over the runs with values of the hook's `key` per benchmark iteration."""
    vals = []
    for r in bench.get_runs():
        m = r.get_metadata()
        calls = m.get("pyadapt_timed_calls")
        if r.values and calls and "pyadapt_timed_" + key in m:
            vals.append(m["pyadapt_timed_" + key] / (calls * m.get("loops", 1)
                                                     * m.get("inner_loops", 1)))
    return statistics.median(vals) if vals else None


def _digests(bench):
    return {r.get_metadata()["result_digest"] for r in bench.get_runs()
            if "result_digest" in r.get_metadata()}


def _load_averages(suites):
    loads = []
    for suite in suites.values():
        if suite is None:
            continue
        for b in suite.get_benchmarks():
            for r in b.get_runs():
                v = r.get_metadata().get("load_avg_1min")
                if v is not None:
                    loads.append(v)
    return loads


def geomean(xs):
    xs = [x for x in xs if x]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def _fmt_time(seconds, stdev):
    if seconds is None:
        return "-"
    return "%.1f ±%.1f" % (seconds * 1e3, (stdev or 0.0) * 1e3)


def _fmt_time_with_unit(seconds, stdev):
    """A time and its spread in the unit that suits it (pyperformance's range from ns to s)."""
    if seconds is None:
        return "-"
    for factor, unit in ((1, "s"), (1e-3, "ms"), (1e-6, "us"), (1e-9, "ns")):
        if seconds >= factor:
            break
    spread = (stdev or 0.0) / factor
    return "%.3g ±%s %s" % (seconds / factor, "%.0f" % spread if spread >= 10 else "%.2g" % spread,
                            unit)


def _fmt_ratio(r):
    return "-" if r is None else "%.2f" % r


def _fmt_si(x, unit=""):
    if x is None:
        return "-"
    for factor, prefix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(x) >= factor:
            return "%.1f %s%s" % (x / factor, prefix, unit)
    return "%.0f %s" % (x, unit) if unit else "%.0f" % x


def _fmt_dur(seconds):
    for factor, unit in ((1, "s"), (1e-3, "ms"), (1e-6, "us"), (1e-9, "ns")):
        if seconds >= factor:
            return "%.3g %s" % (seconds / factor, unit)
    return "%.3g ns" % (seconds * 1e9)


def _table(header, rows, markdown, align_left=1):
    if markdown:
        out = ["| " + " | ".join(header) + " |",
               "|" + "|".join(":---" if i < align_left else "---:" for i in range(len(header))) + "|"]
        out += ["| " + " | ".join(r) + " |" for r in rows]
        return "\n".join(out)
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    fmt = lambda r: "  ".join(  # noqa: E731
        (str(c).ljust(w) if i < align_left else str(c).rjust(w)) for i, (c, w) in enumerate(zip(r, widths)))
    return "\n".join([fmt(header), "  ".join("-" * w for w in widths)] + [fmt(r) for r in rows])


def _collect_rows(directory, prefix):
    """(suites by mode, benchmark names, rows by name) of the files directory/<prefix><mode>.json."""
    suites = {stem: _load(os.path.join(directory, prefix + stem + ".json")) for stem in MODE_FILES}
    names = []
    for stem in MODE_FILES:
        if suites[stem] is not None:
            for n in suites[stem].get_benchmark_names():
                if n not in names:
                    names.append(n)
    if prefix:
        names.sort()
    else:
        try:
            from bench import workloads

            order = {n: i for i, n in enumerate(workloads.NAMES)}
            names.sort(key=lambda n: order.get(n, len(order)))
        except ImportError:
            pass
    rows = {}
    for name in names:
        row = {}
        for stem, suite in suites.items():
            if suite is None or name not in suite.get_benchmark_names():
                continue
            b = suite.get_benchmark(name)
            values = b.get_values()
            row[stem] = {
                "median": b.median(),
                "stdev": b.stdev() if len(values) > 1 else 0.0,
                "nvalues": len(values),
                "digests": _digests(b),
                "first_specialized": _run_meta(b, "pyadapt_first_specialized"),
                "python": b.get_metadata().get("python_version", "?"),
            }
            for key in _COUNTER_KEYS:
                value = _run_meta(b, "pyadapt_" + key)
                row[stem][key] = value if value is not None else _per_iteration(b, key)
        rows[name] = row
    return suites, names, rows


def collect(directory):
    suites, names, rows = _collect_rows(directory, "")
    costs = _load(os.path.join(directory, "costs.json"))
    info = {}
    if os.path.exists(os.path.join(directory, RUN_INFO)):
        with open(os.path.join(directory, RUN_INFO)) as f:
            info = json.load(f)
    return suites, names, rows, costs, info


def collect_standard(directory):
    """The standard suite's (suites by mode, names, rows), as collect's."""
    return _collect_rows(directory, STANDARD_PREFIX)


def _ratio(row, a, b):
    if a in row and b in row and row[b]["median"]:
        return row[a]["median"] / row[b]["median"]
    return None


# "native" is the interpreter pyadapt runs on (the suite is run by it: 3.11 or 3.12); its label
# is that run's version (_labels), which need not be the version printing the tables
LABELS = {"native-3.10": "3.10", "native": "%d.%d" % sys.version_info[:2], "generic": "generic",
          "adaptive": "adaptive"}


def _labels(pythons):
    """LABELS with "native" named by the version the run's native mode recorded."""
    labels = dict(LABELS)
    if "native" in pythons:
        labels["native"] = ".".join(pythons["native"].split()[0].split(".")[:2])
    return labels
RATIOS = (("adaptive", "generic"), ("generic", "native"), ("adaptive", "native"), ("adaptive", "native-3.10"),
          ("native", "native-3.10"))


def _suite_tables(names, rows, text, md, what, unit, labels):
    """The times-and-ratios table and the counters table of one suite, appended to text/md."""
    def both(s):
        text.append(s)
        md.append(s)

    # -- times and ratios
    present = [s for s in MODE_FILES if any(s in r for r in rows.values())]
    per_call = what == "workload"  # the own suite: every time in ms
    fmt_time = _fmt_time if per_call else _fmt_time_with_unit
    header = [what] + [("%s (ms)" if per_call else "%s") % labels[s] for s in present]
    ratio_cols = [(a, b) for a, b in RATIOS if a in present and b in present]
    header += ["%s/%s" % (labels[a], labels[b]) for a, b in ratio_cols]
    table = []
    warnings = []
    for name in names:
        r = rows[name]
        line = [name] + [fmt_time(r[s]["median"], r[s]["stdev"]) if s in r else "-" for s in present]
        line += [_fmt_ratio(_ratio(r, a, b)) for a, b in ratio_cols]
        table.append(line)
        digests = set()
        for s in present:
            if s in r:
                digests |= r[s]["digests"]
        if len(digests) > 1:
            warnings.append("%s: results differ between runs/modes (digests %s)"
                            % (name, ", ".join(sorted(digests))))
    gm = ["geometric mean"] + [""] * len(present)
    gm += [_fmt_ratio(geomean([_ratio(rows[n], a, b) for n in names])) for a, b in ratio_cols]
    table.append(gm)
    text.append(_table(header, table, False))
    md.append(_table(header, table, True))
    both("")
    both("times: median ±stdev of pyperf's values, %s; ratios" % unit + ": of medians from this "
         "run, below 1.00 = the first named is faster (adaptive/%s 0.80: pyadapt takes 80%% of "
         "CPython %s's time)." % (labels["native"], labels["native"]))
    for w in warnings:
        both("WARNING: " + w)

    # -- what pyadapt did
    if any("adaptive" in r or "generic" in r for r in rows.values()):
        both("")
        both("pyadapt's counters for one warm call (adaptive mode; instructions/s also generic):"
             if per_call else "pyadapt's counters %s (adaptive mode):" % unit)
        both("")
        if per_call:
            header = [what, "instructions", "instr/s adaptive", "instr/s generic",
                      "specialized (first call)", "re-specialized", "misses", "deopts", "fallbacks"]
        else:  # the hook sees the timed calls only, and cannot count instructions (see it)
            header = [what, "frames", "specialized hits", "re-specialized", "misses", "deopts",
                      "fallbacks"]
        table = []
        for name in names:
            a = rows[name].get("adaptive")
            g = rows[name].get("generic")
            if a is None and g is None:
                continue
            if per_call:
                ins = (a or g)["instructions"]
                ips_a = a["instructions"] / a["median"] if a and a["instructions"] else None
                ips_g = g["instructions"] / g["median"] if g and g["instructions"] else None
                line = [name, _fmt_si(ins), _fmt_si(ips_a), _fmt_si(ips_g),
                        _fmt_si(a and a["first_specialized"])]
            else:
                line = [name, _fmt_si((a or g)["frames"]), _fmt_si(a and a["hits"])]
            line += [_fmt_si(a and a["specialized"]), _fmt_si(a and a["misses"]),
                     _fmt_si(a and a["deopts"]), _fmt_si((a or g)["fallbacks"])]
            table.append(line)
        text.append(_table(header, table, False))
        md.append(_table(header, table, True))
        both("")
        both("re-specialized/misses/deopts: during the warm call (after the first)" if per_call
             else "re-specialized/misses/deopts: during the timed iterations (pyperf's values, "
             "after its warmups)")
        both("fallbacks: frames handed to CPython's loop (generator and coroutine creation).")


def render(directory):
    """(plain text, markdown) of the run in `directory`."""
    suites, names, rows, costs, info = collect(directory)
    std_suites, std_names, std_rows = collect_standard(directory)
    std_loads = _load_averages(std_suites)
    text, md = [], []

    def both(s):
        text.append(s)
        md.append(s)

    pythons = {}
    for stem in MODE_FILES:
        for r in list(rows.values()) + list(std_rows.values()):
            if stem in r:
                pythons[stem] = r[stem]["python"]
                break
    labels = _labels(pythons)
    head = "pyadapt benchmarks"
    if info:
        head += " -- %s, %s" % (info.get("date", "?"), info.get("machine", "?"))
    both(head)
    if info:
        both("command: %s   (total %.1f min; pyperf %s)" % (
            info.get("command", "?"), info.get("elapsed_s", 0) / 60, info.get("pyperf_options", "")))
        if info.get("pyadapt_build"):
            both("pyadapt: %s" % info["pyadapt_build"])
        if info.get("py310_skipped"):
            both("CPython 3.10 baseline skipped: %s" % info["py310_skipped"])
        if info.get("failures"):
            both("FAILED: %s" % ", ".join(info["failures"]))
    cols = []
    for stem, what in (("native-3.10", "native CPython %s"), ("native", "native CPython %s")):
        if stem in pythons:
            cols.append("%s = %s" % (labels[stem], what % pythons[stem].split()[0]))
    if "generic" in pythons or "adaptive" in pythons:
        cols.append("generic/adaptive = pyadapt on CPython %s, specialization off/on"
                    % pythons.get("adaptive", pythons.get("generic", "3.11")).split()[0])
    both("columns: " + "; ".join(cols))
    loads = _load_averages(suites)
    if loads:
        both("load average (1 min) while the workloads ran: min %.2f, median %.2f, max %.2f"
             % (min(loads), statistics.median(loads), max(loads)))
        if statistics.median(loads) > 1.5:
            both("NOTE: other processes shared the machine (the benchmark itself accounts for a "
                 "load of about 1): times are inflated and noisy; the ratios, taken between modes "
                 "run interleaved workload by workload, suffer less.")
    both("")

    if names:
        _suite_tables(names, rows, text, md, "workload", "per workload call", labels)
    if std_names:
        if names:
            both("")
        both("The standard suite: pyperformance %s's benchmark scripts, unmodified, each run as a "
             "whole program (natively, and as `python -m pyadapt [--generic] run_benchmark.py`: "
             "the script, pyperf and its timing loop in pyadapt)%s:"
             % (info.get("pyperformance") or "", "" if not std_loads else
                "; load average min %.2f, median %.2f, max %.2f" % (
                    min(std_loads), statistics.median(std_loads), max(std_loads))))
        both("")
        _suite_tables(std_names, std_rows, text, md, "benchmark", "per benchmark iteration", labels)
    elif info.get("pyperformance_skipped"):
        both("")
        both("pyperformance benchmarks skipped: %s" % info["pyperformance_skipped"])

    # -- costs
    if costs is not None:
        both("")
        both("pyadapt's own costs:")
        both("")
        for line in _cost_lines(costs):
            text.append("  " + line)
            md.append("- " + line)

    # -- whole programs (bench/programs.py)
    programs_json = os.path.join(directory, "programs.json")
    if os.path.exists(programs_json):
        from bench import programs

        ptext, pmd = programs.table_of_file(programs_json)
        both("")
        both("whole programs: python vs python -m pyadapt (bench/programs.py)")
        both("")
        text.append(ptext)
        md.append(pmd)
    return "\n".join(text), "\n".join(md)


def _cost_lines(costs):
    med = {}
    sd = {}
    for b in costs.get_benchmarks():
        med[b.get_name()] = b.median()
        sd[b.get_name()] = b.stdev() if len(b.get_values()) > 1 else 0.0
    lines = []
    meta = {}
    if "compile_adaptive" in med:
        meta = costs.get_benchmark("compile_adaptive").get_metadata()
    n_code = meta.get("code_objects")
    n_instr = meta.get("cpython_instructions")
    if n_code and n_instr:
        per_code = n_instr / n_code
        for key, label in (("compile_adaptive", "adaptive"), ("compile_generic", "generic")):
            if key in med:
                lines.append("compile (%s mode): %s ±%s per code object, %s per CPython instruction "
                             "(%d code objects of the workloads, %.1f instructions each)"
                             % (label, _fmt_dur(med[key]), _fmt_dur(sd[key]),
                                _fmt_dur(med[key] / per_code), n_code, per_code))
        words = meta["pyadapt_instruction_words"] * 4 / n_instr
        caches = meta["pyadapt_cache_units"] * 4 / n_instr
        side = meta["pyadapt_side_table_bytes"] / n_instr
        cpy = meta["cpython_bytes"] / n_instr
        lines.append("code size per CPython instruction: pyadapt %.1f bytes (%.1f instruction words "
                     "+ %.1f inline caches), CPython 3.11 %.1f bytes (code units incl. its caches); "
                     "pyadapt's side tables (offset maps, generic copy for re-quickening, exception "
                     "table) add %.1f bytes" % (words + caches, words, caches, cpy, side))
    if "call_native" in med and "call_jit" in med:
        lines.append("call from native code: plain function %s, @pyadapt.jit function %s: "
                     "%s overhead per call"
                     % (_fmt_dur(med["call_native"]), _fmt_dur(med["call_jit"]),
                        _fmt_dur(med["call_jit"] - med["call_native"])))
    if "call_native_hooked" in med and "call_native" in med:
        lines.append("a plain function called while the hook is installed (a jit function exists): "
                     "%s per call (+%s: the PEP 523 hook stops CPython's own call inlining)"
                     % (_fmt_dur(med["call_native_hooked"]),
                        _fmt_dur(med["call_native_hooked"] - med["call_native"])))
    if "call_inlined" in med:
        lines.append("the same call inside pyadapt (caller and callee in pyadapt's loop): %s per "
                     "call" % _fmt_dur(med["call_inlined"]))
    if "run_entry" in med:
        lines.append("pyadapt.run(f) of an empty function: %s per call" % _fmt_dur(med["run_entry"]))
    if "stats_read" in med:
        lines.append("pyadapt.stats(): %s per call with every workload's code loaded "
                     "(it sums the per-site hit counters of all units)" % _fmt_dur(med["stats_read"]))
    lines.append("statistics counting cannot be switched off (no build option), so its cost is "
                 "not measured separately; the rates above (instr/s) include it")
    return lines


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    markdown = "--markdown" in argv
    dirs = [a for a in argv if not a.startswith("--")]
    if len(dirs) != 1:
        sys.exit("usage: python -m bench.report RESULT_DIR [--markdown]")
    text, md = render(dirs[0])
    print(md if markdown else text)


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    if sys.path and os.path.abspath(sys.path[0] or os.curdir) == here:
        sys.path[0] = root
    main()
