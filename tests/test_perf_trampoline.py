"""perf's stack trampoline (3.12+) under pyadapt.

``sys.activate_stack_trampoline("perf")`` installs CPython's trampoline as the eval-frame
function and refuses while another one holds the slot -- pyadapt's hook, in any process pyadapt
runs ("Trampoline cannot be initialized as a custom eval frame is already present": CPython's
test_perf_profiler failed so in children started under pyadapt).  pyadapt now gives the slot up
for it and takes it back when the trampoline is deactivated (csrc/pa_hook.c).  A child program
activates it, calls functions, deactivates it and reads the perf map CPython wrote; natively
and under ``python -m pyadapt`` it must print the same, and under pyadapt the frame counts
must show that frames went to CPython's loop while the trampoline was active and to pyadapt's
loop again after.
"""
import sys

import pytest

from processes import MARKER, PYADAPT_STATE, assert_ran_under_pyadapt, report, run_pyadapt, \
    run_python, write

pytestmark = pytest.mark.skipif(
    not hasattr(sys, "activate_stack_trampoline"),
    reason="sys.activate_stack_trampoline is new in 3.12 (and needs a build with perf support)")

PROGRAM = PYADAPT_STATE + '''
import json, os, sys

def bar(i):
    return i * 2

def foo(n):
    return sum(bar(i) for i in range(n))

def frames():
    pyadapt = sys.modules.get("pyadapt")
    return pyadapt.stats()["frames"] if pyadapt else None

def main():
    out = {}
    f = sys.activate_stack_trampoline
    out["looks"] = [type(f).__name__, f.__self__ is sys, f.__module__, f.__name__,
                    bool(f.__doc__)]
    try:
        sys.activate_stack_trampoline("no such backend")
    except ValueError as exc:
        out["bad backend"] = str(exc)
    before = frames()
    sys.activate_stack_trampoline("perf")
    out["active"] = sys.is_stack_trampoline_active()
    out["result"] = foo(200)
    during = frames()
    sys.deactivate_stack_trampoline()
    out["inactive"] = not sys.is_stack_trampoline_active()
    out["result after"] = foo(200)
    after = frames()
    path = "/tmp/perf-%d.map" % os.getpid()
    with open(path) as fh:
        names = {line.split()[-1] for line in fh}
    os.unlink(path)
    out["perf names"] = sorted(n.split(":")[2] for n in names if n.endswith("prog.py"))
    if before is not None:
        # foo(200) makes 202 frames: none through pyadapt's loop with the trampoline on
        # (this frame, running in pyadapt's loop, calls them through the trampoline)
        out["frames"] = [during - before < 10, after - during >= 202]
    out["state"] = pyadapt_state()
    print("''' + MARKER + '''" + json.dumps(out))

main()
'''


def test_perf_trampoline_steps_pyadapt_aside(tmp_path):
    prog = write(tmp_path / "prog.py", PROGRAM)
    native = report(run_python([str(prog)], tmp_path))
    ours = report(run_pyadapt([str(prog)], tmp_path))
    assert native["active"] and native["inactive"], native
    assert_ran_under_pyadapt(ours.pop("state"))
    assert ours.pop("frames") == [True, True]
    native.pop("state")
    assert ours == native
    # the functions first called while the trampoline was active got perf entries
    assert native["perf names"] == ["bar", "foo", "foo.<locals>.<genexpr>", "frames"], native
