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

import pytest

import pyadapt
from processes import describe, run_pyadapt, run_python, write

SITES = '''\
import sys


def add(a, b):
    return a + b


def scale(v, k):
    return v * k


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
    scale("ab", 3)
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
    proc = run_pyadapt([*options, "--stats-json", "stats.json", *program], tmp_path)
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

    scale = site(doc, "v * k", "BINARY_OP")
    assert (scale["form"], scale["kind"]) == ("BINARY_OP_ADAPTIVE", "adaptive")
    assert scale["failure"] == "operands of different types"
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
            "instruction", "form", "kind", "hits", "misses", "backoff", "countdown", "failure"}
    assert all(set(r) == keys for r in doc["sites"])


def test_generic_mode_keeps_no_sites(tmp_path):
    proc, doc = run_sites(tmp_path, ["--generic"])
    assert doc["mode"] == "generic" and doc["warmup"] is None
    assert doc["sites"] == []
    assert doc["instructions"] > 300 * 4, "pyadapt did not run the program"


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
        assert doc["instructions"] > 50 * 3, "pyadapt did not run the console's statements"
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
    line, column, _ = where("v * k")
    failed = next(t for t in err.splitlines() if f"sites.py:{line}:{column} (scale)" in t)
    assert "BINARY_OP" in failed and failed.endswith("operands of different types"), failed
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
