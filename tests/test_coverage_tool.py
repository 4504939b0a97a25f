"""coverage.py measures the same lines and arcs under pyadapt as natively (issue 11).

A program's functions run first unmeasured (pyadapt compiles and specializes them), then
coverage.py starts -- once before the calls, once inside a running frame, which goes on to
be measured -- and the lines (and, with the C tracer, the arcs) it recorded must be those
it records natively.  Each configuration runs in a fresh process natively and under
pyadapt.run(), which must have run frames (its statistics say so).  Cores: coverage's C
tracer (sys.settrace, every version) and, on 3.12+, its sys.monitoring core (tool 1, no
trace function at all), which pyadapt must notice through the interpreter's monitoring
state.
"""
import json
import os
import sys
import textwrap

import pytest

from harness import assert_subprocess_ok, run_python

coverage = pytest.importorskip("coverage", reason="coverage.py is in the [test] extras")

PROGRAM = textwrap.dedent('''
    class Box:
        def __init__(self, v):
            self.v = v

        @property
        def double(self):
            return self.v * 2


    def numbers(n):
        for i in range(n):
            if i % 3 == 0:
                continue
            yield i


    def classify(x):
        if x < 5:
            kind = "small"
        elif x < 20:
            kind = "medium"
        else:
            kind = "large"
        return kind


    def risky(x):
        try:
            if x == 7:
                raise ValueError(x)
            return x
        except ValueError:
            return -1
        finally:
            pass


    def work(n):
        total = 0
        for x in numbers(n):
            total += Box(x).double
            total += len(classify(x))
            total += risky(x)
        return total


    def warm():
        for _ in range(40):
            work(30)


    def started_inside(cov, n):
        """coverage starts in this running frame; the lines after it are measured."""
        total = work(3)
        cov.start()
        for x in range(n):
            if x % 2:
                total += x
            else:
                total -= classify(x).count("a")
        total += work(n)
        cov.stop()
        return total
''')

CHILD = '''
import json, os, sys
import coverage
sys.path.insert(0, {tmp!r})
import covprog

mode, where = sys.argv[1], sys.argv[2]

def scenario():
    covprog.warm()
    cov = coverage.Coverage(branch={branch!r}, data_file=None, include=[covprog.__file__])
    if where == "before":
        cov.start()
        try:
            result = covprog.work(25)
        finally:
            cov.stop()
    else:
        result = covprog.started_inside(cov, 25)
    tracer = cov._collector.tracer_name()      # the core coverage used, not a fallback
    data = cov.get_data()
    arcs = data.arcs(covprog.__file__) if {branch!r} else None
    return tracer, result, sorted(data.lines(covprog.__file__) or []), sorted(arcs or [])

if mode == "pyadapt":
    import pyadapt
    before = pyadapt.stats()["frames"]
    out = pyadapt.run(scenario)
    assert pyadapt.stats()["frames"] > before + 100, "pyadapt ran no frames"
else:
    out = scenario()
print(json.dumps(out))
'''

CORES = [("ctrace", True)]
if sys.version_info >= (3, 12):
    CORES.append(("sysmon", False))     # coverage 7.6's sys.monitoring core: lines only


@pytest.mark.parametrize("where", ["before", "inside"])
@pytest.mark.parametrize("core,branch", CORES, ids=[c for c, _ in CORES])
def test_coverage_measures_as_natively(tmp_path, core, branch, where):
    (tmp_path / "covprog.py").write_text(PROGRAM)
    child = CHILD.format(tmp=str(tmp_path), branch=branch)
    script = tmp_path / "child.py"
    script.write_text(child)
    env = {"COVERAGE_CORE": core}
    outs = {}
    for mode in ("native", "pyadapt"):
        proc = run_python("import runpy, sys; sys.argv = [%r, %r, %r]; runpy.run_path(%r, run_name='__main__')"
                          % (str(script), mode, where, str(script)), env=env)
        assert_subprocess_ok(proc)
        outs[mode] = json.loads(proc.stdout.strip().splitlines()[-1])
    tracer, result, lines, arcs = outs["native"]
    assert tracer == {"ctrace": "CTracer", "sysmon": "SysMonitor"}[core]
    assert len(lines) > 20, "coverage measured nothing natively"
    if branch:
        assert len(arcs) > 20
    assert outs["pyadapt"] == outs["native"]
