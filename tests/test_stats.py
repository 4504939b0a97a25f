"""``--stats-json``'s run description and per-site records, and ``--stats``' top sites.

A small program has four sites whose fate is known: a float addition in a hot loop
(specialized, every guard holding), an addition that specialized on ints and then saw floats
(specialized, missing), a multiplication of an int by a float (failed: operands of different
types), and a subtraction that specialized on ints and then saw more floats than its miss
budget (deoptimized, warming up again).  The records are checked against the program's own
text (file, line, column) and against the counts that follow from the warmup; the program's
output against a native run.
"""
import json
import platform
import sys

import pytest

import pyadapt
from processes import describe, run_pyadapt, run_python, write

SITES = '''\
import sys


def add(a, b):
    return a + b


def scale(v, k):
    return v ** k


def sub(a, b):
    return a - b


def hot(n):
    t = 0.0
    for i in range(n):
        t = t + 0.5
    return t


for i in range(100):
    add(i, 1)
for i in range(30):
    add(0.5, 1.5)
for i in range(20):
    scale(3, 2)
for i in range(100):
    sub(i, 1)
for i in range(60):
    sub(0.5, 1.5)
print(hot(300), sys.argv[1:])
'''


def where(expression):
    """(line, column, end column) of the first occurrence of expression in SITES."""
    for number, text in enumerate(SITES.splitlines(), 1):
        if expression in text:
            column = text.index(expression)
            return number, column, column + len(expression)
    raise AssertionError(expression)


def run_sites(tmp_path, options, program=("sites.py", "one", "two")):
    write(tmp_path / "sites.py", SITES)
    # --compile-after 0: the counts below are of every call, the first ones included
    proc = run_pyadapt(["--compile-after", "0", *options, "--stats-json", "stats.json",
                        *program], tmp_path)
    assert proc.returncode == 0, describe(proc)
    native = run_python(list(program), tmp_path)
    assert proc.stdout == native.stdout, describe(proc)
    return proc, json.loads((tmp_path / "stats.json").read_text())


def site(doc, expression, instruction):
    """The one record of instruction at expression's span in sites.py."""
    line, column, end_column = where(expression)
    found = [r for r in doc["sites"] if r["file"].endswith("sites.py") and r["line"] == line
             and r["instruction"] == instruction]
    assert len(found) == 1, (expression, found)
    (record,) = found
    assert (record["column"], record["end_line"], record["end_column"]) == \
        (column, line, end_column), record
    return record


@pytest.mark.parametrize("warmup", [0, 2])
def test_stats_json_describes_the_run_and_its_sites(tmp_path, warmup):
    proc, doc = run_sites(tmp_path, ["--warmup", str(warmup)])
    assert doc["format"] == "pyadapt-stats" and doc["format_version"] == 1
    assert doc["pyadapt"] == pyadapt.__version__
    assert doc["python"] == platform.python_version()
    assert doc["mode"] == "adaptive" and doc["warmup"] == warmup
    assert doc["program"] == {"kind": "script", "target": "sites.py", "args": ["one", "two"]}
    # pyadapt.stats()'s totals are still at the top level
    assert doc["specialized"]["BINARY_OP_ADD_FLOAT"]["hits"] >= 300 - warmup

    hot = site(doc, "t + 0.5", "BINARY_OP")
    assert hot["file"] == str(tmp_path / "sites.py")
    assert hot["function"] == "hot"
    assert (hot["form"], hot["kind"]) == ("BINARY_OP_ADD_FLOAT", "specialized")
    assert hot["hits"] == 300 - warmup and hot["misses"] == 0 and hot["failure"] is None

    # specialized on ints, then 30 executions on floats: 30 misses, fewer than the budget
    add = site(doc, "a + b", "BINARY_OP")
    assert (add["form"], add["kind"], add["function"]) == ("BINARY_OP_ADD_INT", "specialized",
                                                           "add")
    assert add["hits"] == 100 - warmup and add["misses"] == 30 < doc["miss_budget"]

    scale = site(doc, "v ** k", "BINARY_OP")
    assert (scale["form"], scale["kind"]) == ("BINARY_OP_ADAPTIVE", "adaptive")
    assert scale["failure"] == "operator not specialized"
    assert scale["hits"] == 0 and scale["backoff"] >= 1

    # 52 misses deoptimized it (backoff 1: 31 executions before the next attempt), and the
    # 8 floats after that counted down
    sub = site(doc, "a - b", "BINARY_OP")
    assert doc["miss_budget"] == 52
    assert (sub["form"], sub["kind"], sub["failure"]) == ("BINARY_OP_ADAPTIVE", "adaptive", None)
    assert (sub["backoff"], sub["countdown"], sub["hits"], sub["misses"]) == (1, 31 - 8, 0, 0)
    assert doc["specialized"]["BINARY_OP_SUBTRACT_INT"]["deopts"] == 1

    # the loop's own sites: the module level is in the records too
    loop = [r for r in doc["sites"] if r["file"].endswith("sites.py")
            and r["function"] == "<module>" and r["form"] == "FOR_ITER_RANGE"]
    assert len(loop) == 5 and all(r["hits"] > 0 for r in loop), loop
    # every record has the documented keys
    keys = {"file", "line", "column", "end_line", "end_column", "function", "offset",
            "instruction", "form", "kind", "hits", "misses", "backoff", "countdown", "failure",
            "attempts", "deopts", "seen", "advice"}
    assert all(set(r) == keys for r in doc["sites"])

    # what the specializer saw: the float loop, one attempt on two floats
    assert (hot["attempts"], hot["deopts"]) == (1, 0)
    assert hot["seen"] == [{"types": ["float", "float"], "kind": None,
                            "result": "BINARY_OP_ADD_FLOAT", "specialized": True,
                            "count": 1}]
    assert hot["advice"] is None
    # an int to the power of an int, at every attempt (its backoff counts them)
    assert scale["attempts"] == scale["backoff"] and scale["deopts"] == 0
    assert scale["seen"] == [{"types": ["int", "int"], "kind": None,
                              "result": "operator not specialized", "specialized": False,
                              "count": scale["attempts"]}]
    assert scale["advice"].startswith("** does not specialize: for a small constant power")
    # specialized on ints, then floats came: the types it specialized for, the types that
    # missed its guards (recorded at each miss), and what to do
    assert add["seen"][0]["types"] == ["int", "int"] and add["deopts"] == 0
    assert add["seen"][1:] == [{"types": ["float", "float"], "kind": "missed its guards",
                                "result": "BINARY_OP_ADD_INT", "specialized": False,
                                "count": 30}], add["seen"]
    assert add["advice"] == ("specialized for int, then float (30 times) came: keep one type "
                             "here, or split the code by type"), add["advice"]
    # the deopt is counted at the site (not yet followed by an attempt: from its counter)
    assert (sub["attempts"], sub["deopts"]) == (1, 1)
    assert sub["seen"][0]["result"] == "BINARY_OP_SUBTRACT_INT"
    assert sub["advice"].startswith("deoptimized once")


def test_generic_mode_keeps_no_sites(tmp_path):
    proc, doc = run_sites(tmp_path, ["--generic"])
    assert doc["mode"] == "generic" and doc["warmup"] is None
    assert doc["sites"] == []
    assert doc["frames"] >= 250, "pyadapt did not run the program"   # 250 calls, and more


LOOP = "for i in range(50): i + 1"


@pytest.mark.parametrize("program, kind, target, args", [
    (("-c", LOOP, "x"), "command", LOOP, ["x"]),
    (("-", "a"), "stdin", "-", ["a"]),
    (("-i",), "interactive", None, []),
    (("-m", "sites", "y"), "module", "sites", ["y"]),
])
def test_stats_json_names_the_program(tmp_path, program, kind, target, args):
    write(tmp_path / "sites.py", SITES)
    proc = run_pyadapt(["--warmup", "2", "--stats-json", "stats.json", *program], tmp_path,
                       stdin=LOOP + "\n")
    assert proc.returncode == 0, describe(proc)
    doc = json.loads((tmp_path / "stats.json").read_text())
    assert doc["program"] == {"kind": kind, "target": target, "args": args}
    if kind == "interactive":
        # each statement's code is freed once it ran: what is alive at exit has no sites
        hits = doc["specialized"]["FOR_ITER_RANGE"]["hits"]
        assert hits >= 45, "pyadapt did not run the console's statements"
    elif kind != "module":
        (add,) = [r for r in doc["sites"] if r["instruction"] == "BINARY_OP"]
        filename = "<string>" if kind == "command" else "<stdin>"
        assert (add["file"], add["line"], add["column"]) == (filename, 1, LOOP.index("i + 1"))
        assert add["form"] == "BINARY_OP_ADD_INT" and add["hits"] == 48
    else:
        # -m: the module level runs through runpy, and its sites are kept too
        add = site(doc, "a + b", "BINARY_OP")
        assert add["misses"] == 30


def test_stats_lists_the_top_sites(tmp_path):
    proc, doc = run_sites(tmp_path, ["--warmup", "2", "--stats"])
    err = proc.stderr
    line, column, _ = where("a + b")
    assert "sites with the most misses (top 1 of 1;" in err, err
    missing = next(t for t in err.splitlines() if f"sites.py:{line}:{column} (add)" in t)
    assert missing.split()[:3] == ["30", "98", "BINARY_OP_ADD_INT"], missing
    line, column, _ = where("v ** k")
    failed = next(t for t in err.splitlines() if f"sites.py:{line}:{column} (scale)" in t)
    assert "BINARY_OP" in failed and failed.endswith("operator not specialized"), failed
    lines = err.splitlines()
    advice = lines[lines.index(failed) + 1]
    assert advice.startswith("           -> ** does not specialize"), advice
    line, column, _ = where("a - b")
    deopted = next(t for t in err.splitlines() if f"sites.py:{line}:{column} (sub)" in t)
    assert deopted.endswith("deoptimized, warming up again"), deopted
    assert "sites that failed to specialize or deoptimized (top 2 of 2;" in err, err


def test_stats_top_limits_and_implies_stats(tmp_path):
    proc, doc = run_sites(tmp_path, ["--warmup", "2", "--stats-top", "0"])
    assert "pyadapt statistics" in proc.stderr
    assert "sites with" not in proc.stderr and "sites that failed" not in proc.stderr

    # two failing sites, one row shown
    write(tmp_path / "two.py", "def f(a, b):\n    return a * b\n\n\ndef g(a, b):\n"
          "    return a - b\n\n\nfor i in range(20):\n    f('ab', 2)\n    g({1}, frozenset())\n")
    proc = run_pyadapt(["--warmup", "2", "--stats-top", "1", "two.py"], tmp_path)
    assert proc.returncode == 0, describe(proc)
    assert "sites that failed to specialize or deoptimized (top 1 of 2;" in proc.stderr
    rows = [t for t in proc.stderr.splitlines() if "two.py:" in t]
    assert len(rows) == 1 and "operands of different types" in rows[0], proc.stderr


@pytest.mark.parametrize("option", [["--stats-top=-1"], ["--stats-top", "x"]])
def test_bad_stats_top_is_a_usage_error(tmp_path, option):
    write(tmp_path / "sites.py", SITES)
    proc = run_pyadapt([*option, "sites.py"], tmp_path)
    assert proc.returncode == 2, describe(proc)
    assert "argument --stats-top: expected a count" in proc.stderr


# ---- what the specializer saw, in this process --------------------------------------------------

class Slotted:
    __slots__ = ("v",)

    def __init__(self):
        self.v = 1


class WithGetattr:
    def __getattr__(self, name):
        return 2


def kw(a, b):
    return a + b


def what_it_met(n, objects, values):
    t = 0
    for i in range(n):
        t += kw(a=1, b=2)                 # a Python function called with keywords
        t += objects[i % 2].v             # two classes: a __slots__ member, then __getattr__
        t = values[i] + values[i]         # floats, then ints: deopts
    return t


def test_seen_records_types_kinds_and_deopts():
    from pyadapt import _sites

    pyadapt.configure(specialize=True, warmup=2)
    values = [0.5] * 100 + [1] * 100 + [0.5] * 200
    pyadapt.run(what_it_met, 400, [Slotted(), WithGetattr()], values)
    code = what_it_met.__code__
    seen = _sites.seen_at(code)
    records = {(r["line"], r["instruction"]): r for r in _sites.site_records([code])}
    first = code.co_firstlineno

    call = records[(first + 3, "CALL")]
    assert call["failure"] == "call with keyword arguments"
    assert {"types": ["function"], "kind": "Python function, called with keyword arguments",
            "result": "call with keyword arguments", "specialized": False,
            "count": call["attempts"]} in call["seen"]
    assert call["advice"] == "called with keyword arguments: pass them positionally here"

    attr = records[(first + 4, "LOAD_ATTR")]
    kinds = {(tuple(e["types"]), e["kind"]) for e in attr["seen"]}
    assert (("Slotted", "member_descriptor"), "__slots__ member") in kinds, kinds
    assert (("WithGetattr",), "class defines __getattr__") in kinds, kinds

    # the addition: float, 52 misses on ints, a deopt, ints, a deopt, floats ...
    add = [r for r in records.values() if r["line"] == first + 5
           and r["instruction"] == "BINARY_OP"]
    (add,) = add
    assert add["deopts"] >= 2, add
    assert {tuple(e["types"]) for e in add["seen"]} == {("float", "float"), ("int", "int")}
    # pyadapt's own view agrees: the form in the record is the one dis shows at that offset
    (ins,) = [i for i in pyadapt.get_instructions(what_it_met)
              if i.cpy_offset == add["offset"] and i.family == "BINARY_OP"]
    assert ins.opname == add["form"]
    assert seen[ins.offset]["deopts"] + _sites.deopt_pending(ins) == add["deopts"]
    assert pyadapt.stats()["specialized"]["BINARY_OP_ADD_INT"]["deopts"] >= 1


def test_record_sites_off_keeps_no_records_and_still_specializes():
    """configure(record_sites=False): the attempts specialize as before, and nothing is
    recorded for the sites (what a whole program run without --stats pays for nothing)."""
    from pyadapt import _sites

    def loop(n, values):
        t = 0.0
        for i in range(n):
            t = t + values[i]
        return t

    values = [0.5] * 300
    pyadapt.configure(specialize=True, warmup=2, record_sites=False)
    try:
        assert pyadapt.config()["record_sites"] is False
        hits = pyadapt.stats()["specialized"].get("BINARY_OP_ADD_FLOAT", {}).get("hits", 0)
        assert pyadapt.run(loop, 300, values) == loop(300, values)
        after = pyadapt.stats()["specialized"]["BINARY_OP_ADD_FLOAT"]["hits"]
        assert after - hits >= 290                      # it specialized and hit ...
        # ... and recorded nothing: the sites are listed (from the code) with no attempts
        records = _sites.site_records([loop.__code__])
        assert records, "no sites listed"
        assert [(r["instruction"], r["attempts"], r["seen"]) for r in records
                if r["attempts"] or r["seen"]] == []
    finally:
        pyadapt.configure(record_sites=True)
    # switched back on: the next attempts are recorded
    pyadapt.configure(specialize=True, warmup=2)
    pyadapt.run(loop, 300, [1] * 300)                   # ints now: misses, a deopt, attempts
    (add,) = [r for r in _sites.site_records([loop.__code__]) if r["instruction"] == "BINARY_OP"]
    assert add["attempts"] >= 1 and ("float", "int") in {tuple(e["types"]) for e in add["seen"]}


@pytest.mark.parametrize("value", [1, 0, "yes", None.__class__])
def test_record_sites_must_be_a_bool(value):
    before = pyadapt.config()
    with pytest.raises(TypeError, match="record_sites must be True or False"):
        pyadapt.configure(record_sites=value)
    assert pyadapt.config() == before


@pytest.mark.parametrize("options, expected", [
    ((), False), (("--stats",), True), (("--stats-json", "out.json"), True),
    (("--report", "rep"), True), (("--generic",), False),
])
def test_launcher_records_sites_only_for_its_outputs(tmp_path, options, expected):
    code = "import pyadapt; print(pyadapt.config()['record_sites'], pyadapt.is_enabled())"
    proc = run_pyadapt([*options, "-c", code], tmp_path)
    assert proc.returncode == 0, describe(proc)
    assert proc.stdout.splitlines()[0] == f"{expected} True"


class Base:
    def __init__(self):
        self.x = 1


class Derived(Base):
    pass


def read_x(objects):
    t = 0
    for o in objects:
        t += o.x
    return t


def test_polymorphic_attribute_records_the_types_it_holds(tmp_path):
    from pyadapt import _report, _sites

    pyadapt.configure(specialize=True, warmup=2)
    assert pyadapt.run(read_x, [Base(), Derived()] * 50) == 100
    code = read_x.__code__
    (record,) = [r for r in _sites.site_records([code]) if r["instruction"] == "LOAD_ATTR"]
    # one form holds both classes (dis shows it), and the record says which, in order
    (ins,) = [i for i in pyadapt.get_instructions(read_x) if i.family == "LOAD_ATTR"]
    assert ins.opname == record["form"] == "LOAD_ATTR_INSTANCE_VALUE"
    assert ins.hits == record["hits"] >= 95 and record["misses"] == 0
    assert [(e["types"], e["kind"], e["result"]) for e in record["seen"]] == [
        (["Base"], "instance attribute", "LOAD_ATTR_INSTANCE_VALUE"),
        (["Derived"], "another type: held too",
         "LOAD_ATTR_INSTANCE_VALUE")]
    assert record["deopts"] == 0 and record["advice"] is None
    # the report's hover names it polymorphic, green: nothing to fix
    _report.report(str(tmp_path / "rep"), codes=[code])
    page = next(p for p in (tmp_path / "rep").iterdir() if p.name.startswith("test_stats"))
    text = page.read_text()
    assert "polymorphic: LOAD_ATTR_INSTANCE_VALUE holds Base, Derived" in text
    assert "Sites to fix (0)" in text


def keyworded(x):
    return x


def advised(n, partial):
    t = 0.0
    for i in range(n):
        t += keyworded(x=1)     # a Python function called with a keyword
        t += partial(0)         # a functools.partial: CALL_NON_PY_GENERAL
        q = i ** 2              # a power
        a, b = "ab"             # unpacking a str
    return t + q


def test_advice_for_what_a_site_saw():
    import functools

    from pyadapt import _sites

    pyadapt.configure(specialize=True, warmup=2)
    pyadapt.run(advised, 30, functools.partial(max, 1))
    first = advised.__code__.co_firstlineno
    records = {(r["line"] - first, r["instruction"]): r
               for r in _sites.site_records([advised.__code__])}
    expected = {
        (3, "CALL"): ("call with keyword arguments", ["function"],
                      "called with keyword arguments: pass them positionally here"),
        (5, "BINARY_OP"): ("operator not specialized", ["int", "int"],
                           "** does not specialize: for a small constant power write the "
                           "product"),
        (6, "UNPACK_SEQUENCE"): ("sequence type or length not specialized", ["str"],
                                 "unpacking a str: unpack a tuple or a list"),
    }
    for key, (failure, types, advice) in expected.items():
        record = records[key]
        assert record["kind"] == "adaptive" and record["failure"] == failure, record
        assert record["seen"][-1]["types"] == types, record
        assert record["advice"].startswith(advice), record
    # a callable no other form takes is called by the general form: nothing to advise
    record = records[(4, "CALL")]
    assert record["form"] == "CALL_NON_PY_GENERAL" and record["advice"] is None, record
    assert record["seen"][-1]["types"] == ["functools.partial"], record


class Sized:
    def __len__(self):
        return 1


def count_truthy(n, obj):
    hits = 0
    for _ in range(n):
        if obj:                 # a class that defines its truth
            hits += 1
    return hits


@pytest.mark.skipif(sys.version_info < (3, 13), reason="TO_BOOL is 3.13's instruction")
def test_advice_for_a_truth_test_of_a_class_with_len():
    from pyadapt import _sites

    pyadapt.configure(specialize=True, warmup=2)
    assert pyadapt.run(count_truthy, 30, Sized()) == 30
    records = [r for r in _sites.site_records([count_truthy.__code__])
               if r["instruction"] == "TO_BOOL"]
    assert len(records) == 1, records
    record = records[0]
    assert record["failure"] == "class defines its truth (__bool__ or __len__)", record
    assert record["advice"].startswith("Sized defines __bool__ or __len__"), record
