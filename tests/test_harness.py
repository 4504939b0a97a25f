"""The harness itself: its comparison is careful, and it fails when pyadapt did not really run the code."""

import pytest

import harness
from harness import diff, differential, differential_factory, same


def test_same_handles_floats():
    nan = float("nan")
    assert same(nan, float("nan"))
    assert same([1.0, nan], [1.0, float("nan")])
    assert not same(0.0, -0.0)
    assert not same(1, 1.0)
    assert not same(True, 1)
    assert same(complex(nan, 1), complex(nan, 1))


def test_same_handles_containers_and_order():
    assert same({"a": 1, "b": 2}, {"a": 1, "b": 2})
    assert not same({"a": 1, "b": 2}, {"b": 2, "a": 1})  # dict order is observable
    assert same({1, 2, 3}, {3, 2, 1})
    assert not same([1, [2, 3]], [1, [2, 4]])
    assert "[1][1]" in diff([1, [2, 3]], [1, [2, 4]])
    a = [1]
    a.append(a)
    b = [1]
    b.append(b)
    assert same(a, b)


def test_same_compares_identity_objects_by_state():
    def make():
        class P:
            def __init__(self, x):
                self.x = x

        return P

    P1, P2 = make(), make()
    assert same(P1(1), P2(1))
    assert not same(P1(1), P2(2))
    assert same(object.__new__(P1).__class__, P2)
    assert same(lambda: 1, lambda: 1)  # same qualname
    assert same(iter([]).__class__, iter([]).__class__)


def test_same_compares_exceptions():
    def boom(msg):
        try:
            raise ValueError(msg)
        except ValueError as e:
            return e

    assert same(boom("x"), boom("x"))
    assert not same(boom("x"), boom("y"))


def _native_run(func, /, *args, **kwargs):
    return func(*args, **kwargs)


def test_rejects_silent_native_fallback(monkeypatch):
    """A `run` that just calls the function natively must fail the proof of execution."""
    monkeypatch.setattr(harness.pyadapt, "run", _native_run)

    def f():
        return sum(i * i for i in range(10))

    with pytest.raises(pytest.fail.Exception, match="pyadapt did not run"):
        differential(f)


def test_rejects_divergent_result(monkeypatch):
    real_run = harness.pyadapt.run

    def wrong_run(func, /, *args, **kwargs):
        return real_run(func, *args, **kwargs) + 1

    monkeypatch.setattr(harness.pyadapt, "run", wrong_run)
    with pytest.raises(pytest.fail.Exception, match="diverged"):
        differential(lambda: 41)


def test_rejects_divergent_traceback(monkeypatch):
    real_run = harness.pyadapt.run

    def other_line():
        raise KeyError("k")

    def wrong_run(func, /, *args, **kwargs):
        real_run(func, *args, **kwargs)  # proves execution, then raises from elsewhere
        other_line()

    def f():
        raise KeyError("k")

    monkeypatch.setattr(harness.pyadapt, "run", wrong_run)
    with pytest.raises(pytest.fail.Exception, match="traceback"):
        differential(f)


def test_rejects_divergent_stdout_and_side_effects(monkeypatch):
    real_run = harness.pyadapt.run
    state = {"runs": 0}

    def make():
        log = []

        def f():
            log.append(1)
            return "ok"

        return f, lambda: list(log)

    def extra_effect_run(func, /, *args, **kwargs):
        result = real_run(func, *args, **kwargs)
        state["runs"] += 1
        func()  # a second, native call: one more side effect than natively
        return result

    monkeypatch.setattr(harness.pyadapt, "run", extra_effect_run)
    with pytest.raises(pytest.fail.Exception, match="side effects"):
        differential_factory(make)

    def printing_run(func, /, *args, **kwargs):
        result = real_run(func, *args, **kwargs)
        print("extra")
        return result

    monkeypatch.setattr(harness.pyadapt, "run", printing_run)
    with pytest.raises(pytest.fail.Exception, match="stdout"):
        differential(lambda: 1)


def test_rejects_missing_entry_of_also(monkeypatch):
    """`also` code that pyadapt never entered fails the test."""

    def never_called():
        return 1

    def f():
        return 2

    with pytest.raises(pytest.fail.Exception, match="never_called"):
        harness.check(f, also=[never_called])


def test_factory_gives_fresh_state_each_run():
    made = []

    def make():
        log = []
        made.append(log)

        def f(x):
            log.append(x)
            return len(log)

        return f, lambda: tuple(log)

    assert differential_factory(make, 7) == 1
    assert len(made) == 1 + len(harness.CONFIGS) * sum(n for _m, n in harness.SCHEDULE)
