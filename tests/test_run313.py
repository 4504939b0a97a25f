"""CPython 3.13's own bytecode under pyadapt's loop, compared with CPython's (runs on 3.13
only: 3.13 is refused at install until docs/architecture.md's list for it is done, so these
run where the refusal is lifted).  tests/test_rows313.py runs the new rows' handlers on 3.11."""
import sys

import pytest

import pyadapt
# What 3.13's own bytecode does under pyadapt's loop (runs where 3.13 is installed and
# enabled): keyword calls (CALL_KW), a closure called with a bad ** (DICT_MERGE's error with
# PUSH_NULL after the callable), a generator suspended, resumed, thrown into and closed
# (where 3.13's frames go on), and sys.exc_info() after a handler (POP_EXCEPT's NULL).
def _programs_313():
    def kw(a, b=2, *, c=3, **rest):
        return a, b, c, rest

    def calls():
        f1 = lambda a: a  # noqa: E731
        out = [kw(1, c=5), kw(a=1, b=2, d=4), sorted([3, 1, 2], key=lambda x: -x)]
        try:
            f1(**1)
        except TypeError as e:
            out.append(str(e))
        return out

    def gen():
        try:
            x = yield 1
            yield x + 1
            yield from (10, 11)
        except KeyError as e:
            yield repr(e)

    def generators():
        g = gen()
        out = [next(g), g.send(5), next(g), g.throw(KeyError("k"))]
        g.close()
        h = gen()
        out.append(next(h))
        out.append(h.gi_frame.f_lasti >= 0)
        return out

    def exc_info_after_handler():
        try:
            raise IndexError
        except IndexError:
            try:
                raise KeyError
            except KeyError:
                pass
            return sys.exc_info()[0].__name__

    return [calls, generators, exc_info_after_handler]


@pytest.mark.skipif(sys.version_info < (3, 13), reason="3.13's bytecode")
@pytest.mark.parametrize("program", _programs_313(), ids=lambda p: p.__name__)
def test_313_bytecode_runs_in_pyadapt(program):
    want = program()
    assert pyadapt.run(program) == want
    assert pyadapt.unit_info(program)["entries"] >= 1
