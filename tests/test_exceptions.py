"""Exceptions: try/except/else/finally, raise forms, chaining, with, except*, assert.

Many cases let the exception escape on purpose: the harness then compares its type, message,
traceback (function, line, columns) and the whole __cause__/__context__ chain.
"""

import contextlib

import pytest

from harness import collect, entered, factory, run_case


def attempt(thunk):
    try:
        return thunk()
    except Exception as e:  # noqa: BLE001
        return (type(e).__name__, str(e))


def raiser(exc):
    raise exc


def deep_raise(n):
    if n == 0:
        raise ValueError("bottom")
    return deep_raise(n - 1) + 1


# --- uncaught: traceback and chain comparison ---------------------------------------------------


def case_uncaught_simple():
    x = 1
    y = 0
    return x / y


def case_uncaught_through_calls():
    return [1, 2, deep_raise(5)]


def case_uncaught_multiline_expression():
    data = {"a": [1, 2]}
    return (
        data["a"][0]
        + data["a"][1]
        + data["b"][0]
    )


def case_uncaught_in_nested_function_and_lambda():
    f = lambda v: v.missing_attribute  # noqa: E731

    def g(v):
        return f(v) + 1

    return g(3)


def case_uncaught_implicit_chain():
    try:
        {}["key"]
    except KeyError:
        raise ValueError("while handling")


def case_uncaught_explicit_cause():
    try:
        int("x")
    except ValueError as e:
        raise RuntimeError("converted") from e


def case_uncaught_suppressed_context():
    try:
        1 / 0
    except ZeroDivisionError:
        raise TypeError("no context") from None


def case_uncaught_cause_from_instance_and_class():
    try:
        raise KeyError("inner")
    except KeyError:
        raise LookupError("outer") from IndexError


def case_uncaught_exception_in_finally():
    try:
        raise ValueError("first")
    finally:
        raise KeyError("from finally")


def case_uncaught_exception_in_except():
    try:
        raise ValueError("first")
    except ValueError:
        x = []
        x[1]


def case_uncaught_reraise_bare():
    try:
        deep_raise(2)
    except ValueError:
        note = "re-raised"  # noqa: F841
        raise


def case_uncaught_reraise_named_after_other_handler():
    try:
        raise ValueError("kept")
    except ValueError as e:
        try:
            raise TypeError("inner handled")
        except TypeError:
            pass
        raise e


def case_uncaught_with_notes():
    try:
        raise ValueError("base")
    except ValueError as e:
        e.add_note("first note")
        e.add_note("second note")
        raise


def case_uncaught_custom_exception():
    class AppError(Exception):
        def __init__(self, code, msg):
            super().__init__(msg)
            self.code = code

        def __str__(self):
            return f"[{self.code}] {self.args[0]}"

    raise AppError(42, "custom")


def case_uncaught_from_builtin_callback():
    return sorted([3, 1, 2], key=lambda v: 1 / (v - 2))


def case_uncaught_system_exit():
    import sys

    sys.exit(3)


def case_uncaught_keyboard_interrupt_like():
    raise KeyboardInterrupt("simulated")


def case_uncaught_assert_message():
    value = 3
    assert value == 4, f"value was {value}"


def case_uncaught_assert_no_message():
    assert [] and 1


def case_uncaught_raise_non_exception():
    raise 42


def case_uncaught_raise_class_bad_init():
    class NeedsArg(Exception):
        def __init__(self, a):
            super().__init__(a)

    raise NeedsArg


def case_raise_from_class_that_makes_no_exception():
    # 3.13: TypeError; 3.11 and 3.12 take the result (None) as the cause
    class ConstructsNone(BaseException):
        @classmethod
        def __new__(*args, **kwargs):
            return None

    try:
        raise IndexError from ConstructsNone
    except BaseException as e:  # noqa: BLE001
        return type(e).__name__, str(e), e.__cause__, e.__suppress_context__


def case_uncaught_bare_raise_nothing_active():
    raise


# --- caught: control flow -------------------------------------------------------------------------


def case_try_except_else_finally_flow():
    log = []

    def run(kind):
        try:
            log.append(f"try {kind}")
            if kind == "value":
                raise ValueError(kind)
            if kind == "key":
                raise KeyError(kind)
            if kind == "other":
                raise OSError(kind)
        except ValueError as e:
            log.append(f"value handler {e}")
        except (KeyError, IndexError) as e:
            log.append(f"lookup handler {e!r}")
        else:
            log.append("else")
        finally:
            log.append("finally")
        return "done"

    results = [attempt(lambda: run(k)) for k in ("none", "value", "key", "other")]
    return results, log


def case_except_variable_is_deleted():
    e = "before"
    try:
        raise ValueError("x")
    except ValueError as e:  # noqa: F841
        pass
    try:
        return e  # noqa: F821
    except NameError as err:
        return "deleted", str(err)


def case_return_in_finally_overrides():
    def f():
        try:
            return "try"
        finally:
            return "finally"  # noqa: B012

    def g():
        try:
            raise ValueError("swallowed")
        finally:
            return "finally wins"  # noqa: B012

    def h():
        x = 1
        try:
            return x
        finally:
            x = 2

    return f(), g(), h()


def case_break_continue_in_finally():
    out = []
    for i in range(5):
        try:
            if i == 1:
                continue
            if i == 3:
                raise ValueError(i)
            out.append(i)
        finally:
            out.append(f"fin{i}")
            if i == 3:
                break  # noqa: B012 - swallows the ValueError
    j = 0
    while True:
        try:
            j += 1
            if j < 3:
                continue
            break
        finally:
            out.append(f"w{j}")
    for i in range(3):
        try:
            pass
        finally:
            continue  # noqa: B012
    return out


def case_nested_try_and_return_paths():
    def f(n):
        try:
            try:
                if n == 0:
                    return "inner return"
                if n == 1:
                    raise KeyError("k")
                if n == 2:
                    raise ValueError("v")
            except KeyError:
                return "caught key"
            finally:
                if n == 3:
                    return "inner finally"  # noqa: B012
        except ValueError as e:
            return f"outer caught {e}"
        finally:
            pass
        return "fell through"

    return [f(i) for i in range(5)]


def case_exception_in_except_chains_context():
    try:
        try:
            raise ValueError("one")
        except ValueError:
            raise KeyError("two")
    except KeyError as e:
        ctx = e.__context__
        return type(ctx).__name__, str(ctx), e.__cause__, e.__suppress_context__, ctx.__traceback__ is not None


def case_exception_attributes_and_traceback_lines():
    import traceback

    try:
        deep_raise(3)
    except ValueError as e:
        tb = traceback.extract_tb(e.__traceback__)
        return [(fr.name, fr.lineno - deep_raise.__code__.co_firstlineno if fr.name == "deep_raise" else "case") for fr in tb], e.args


def case_exception_group_basic():
    def f():
        raise ExceptionGroup("many", [ValueError("v1"), TypeError("t1"), ValueError("v2")])

    handled = []
    try:
        f()
    except* ValueError as eg:
        handled.append(("value", [str(e) for e in eg.exceptions]))
    except* TypeError as eg:
        handled.append(("type", [str(e) for e in eg.exceptions]))
    return handled


def case_exception_group_partial_handling_escapes():
    try:
        raise ExceptionGroup("eg", [ValueError("handled"), KeyError("escapes"), ExceptionGroup("nested", [ValueError("nested handled"), OSError("nested escapes")])])
    except* ValueError:
        pass


def case_exception_group_raise_inside_except_star():
    try:
        raise ExceptionGroup("eg", [ValueError("a"), TypeError("b")])
    except* ValueError:
        raise RuntimeError("new in handler")
    except* TypeError as eg:
        raise eg.exceptions[0]


def case_exception_group_reraise_bare():
    try:
        raise ExceptionGroup("eg", [ValueError("a"), ZeroDivisionError("z")])
    except* ValueError:
        raise


def case_except_star_naked_exception_wrapped():
    out = []
    try:
        raise ValueError("naked")
    except* ValueError as eg:
        out.append((type(eg).__name__, str(eg), [str(e) for e in eg.exceptions]))
    try:
        try:
            raise KeyError("naked key")
        except* ValueError:
            out.append("wrong")
    except KeyError as e:
        out.append(("unwrapped", str(e)))
    return out


def case_except_star_errors():
    def group_type():
        try:
            raise ValueError("x")
        except* ExceptionGroup:
            pass

    return attempt(group_type)


def case_exception_group_split_subgroup():
    eg = ExceptionGroup("top", [ValueError("1"), TypeError("2"), ExceptionGroup("inner", [ValueError("3"), KeyError("4")])])
    match, rest = eg.split(ValueError)
    sub = eg.subgroup(lambda e: isinstance(e, (KeyError, TypeError)))
    derived = eg.derive([ValueError("d")])

    def shape(g):
        if g is None:
            return None
        if isinstance(g, BaseExceptionGroup):
            return (g.message, [shape(e) for e in g.exceptions])
        return f"{type(g).__name__}({g})"

    return shape(match), shape(rest), shape(sub), shape(derived), attempt(lambda: ExceptionGroup("bad", [])), attempt(lambda: ExceptionGroup("bad", [1]))


def case_exception_group_in_loop_with_finally():
    log = []
    for i in range(3):
        try:
            try:
                raise ExceptionGroup(f"g{i}", [ValueError(i), TypeError(i)])
            except* ValueError as eg:
                log.append(("v", i, len(eg.exceptions)))
                if i == 1:
                    raise KeyError("replaces")
            except* TypeError:
                log.append(("t", i))
        except* Exception:
            log.append("outer")
        finally:
            log.append(("finally", i))
    return log


# --- with -----------------------------------------------------------------------------------------


class CM:
    def __init__(self, log, name, suppress=False, fail_in_exit=False, fail_in_enter=False):
        self.log = log
        self.name = name
        self.suppress = suppress
        self.fail_in_exit = fail_in_exit
        self.fail_in_enter = fail_in_enter

    def __enter__(self):
        self.log.append(f"enter {self.name}")
        if self.fail_in_enter:
            raise OSError(f"enter failed {self.name}")
        return self.name.upper()

    def __exit__(self, typ, val, tb):
        self.log.append(f"exit {self.name} {typ.__name__ if typ else None} {val}")
        if self.fail_in_exit:
            raise RuntimeError(f"exit failed {self.name}")
        return self.suppress


@entered(CM.__enter__, CM.__exit__)
def case_with_statement_paths():
    log = []
    with CM(log, "a") as a:
        log.append(f"body {a}")
    with CM(log, "b", suppress=True):
        raise ValueError("suppressed")
    log.append(attempt(lambda: _with_raise(log, CM(log, "c"))))
    log.append(attempt(lambda: _with_raise(log, CM(log, "d", fail_in_exit=True))))
    log.append(attempt(lambda: _with_raise(log, CM(log, "e", fail_in_enter=True))))
    with CM(log, "f") as f, CM(log, "g", suppress=True) as g:
        log.append(f"two {f} {g}")
        raise KeyError("inner suppressed by g")
    return log


def _with_raise(log, cm):
    with cm:
        log.append("body raising")
        raise ValueError("from body")


def case_with_return_break_continue():
    log = []

    def f():
        with CM(log, "ret"):
            return "returned"

    for i in range(3):
        with CM(log, f"loop{i}"):
            if i == 0:
                continue
            if i == 1:
                break
    return f(), log


def case_with_uncaught_exit_failure():
    log = []
    with CM(log, "x", fail_in_exit=True):
        raise ValueError("body")


def case_with_not_a_context_manager():
    return attempt(lambda: _with_raise([], object())), attempt(lambda: _with_raise([], 5))


def case_contextlib_helpers():
    log = []

    @contextlib.contextmanager
    def managed(name):
        log.append(f"setup {name}")
        try:
            yield name * 2
        except KeyError as e:
            log.append(f"handled {e}")
        finally:
            log.append(f"teardown {name}")

    with managed("a") as v:
        log.append(v)
    with managed("b"):
        raise KeyError("k")
    with contextlib.suppress(ZeroDivisionError):
        1 / 0
    with contextlib.ExitStack() as stack:
        for n in "xyz":
            stack.enter_context(managed(n))
        stack.callback(log.append, "callback")
    return log


# --- misc -----------------------------------------------------------------------------------------


def case_assert_statements():
    out = []
    for v in (1, 0, "", [0]):
        try:
            assert v, ("message", v)
            out.append("ok")
        except AssertionError as e:
            out.append(e.args)
    try:
        assert False
    except AssertionError as e:
        out.append(e.args)
    return out


def case_stop_iteration_and_generator_exit_are_exceptions():
    out = []
    for exc in (StopIteration(5), GeneratorExit(), SystemExit(2), KeyboardInterrupt()):
        try:
            raise exc
        except BaseException as e:  # noqa: BLE001
            out.append((type(e).__name__, e.args, isinstance(e, Exception)))
    return out


def case_exception_hierarchy_matching():
    out = []
    for exc in (FileNotFoundError("f"), ZeroDivisionError("z"), UnicodeDecodeError("utf-8", b"x", 0, 1, "bad"), RecursionError("r"), ModuleNotFoundError("m")):
        try:
            raise exc
        except ArithmeticError:
            out.append("arith")
        except OSError as e:
            out.append(("os", e.errno))
        except ValueError as e:
            out.append(("value", str(e)))
        except (RuntimeError, ImportError) as e:
            out.append(type(e).__mro__[1].__name__)
    return out


def case_except_clause_evaluates_expression():
    log = []

    def which(t):
        log.append(t.__name__)
        return t

    try:
        raise KeyError(1)
    except which(ValueError):
        pass
    except which(KeyError):
        log.append("caught")
    bad = attempt(lambda: _except_non_class())
    return log, bad


def _except_non_class():
    try:
        raise ValueError
    except 5:  # noqa
        pass


def case_exception_in_deep_loop_unwinds_blocks():
    total = 0
    for i in range(10):
        for j in range(10):
            try:
                if (i * j) % 7 == 6:
                    raise ValueError
                total += i * j
            except ValueError:
                total -= 1
                if i == 8:
                    break
            finally:
                total += 1000
    return total


def case_sys_exc_info_and_nesting():
    import sys

    out = [sys.exc_info()[0]]
    try:
        raise ValueError("outer")
    except ValueError:
        out.append(sys.exc_info()[0].__name__)
        try:
            raise KeyError("inner")
        except KeyError:
            out.append(str(sys.exception()))
        out.append(str(sys.exc_info()[1]))
    out.append(sys.exc_info())
    return out


@factory
def case_del_during_unwind():
    log = []

    class Tracked:
        def __init__(self, n):
            self.n = n

        def __del__(self):
            log.append(f"del {self.n}")

    def f():
        t = Tracked(1)  # noqa: F841
        try:
            u = Tracked(2)  # noqa: F841
            raise ValueError("x")
        except ValueError:
            log.append("handler")
        return "end"

    return f, lambda: list(log)


@pytest.mark.parametrize("case,args,kwargs", collect(globals()))
def test_case(case, args, kwargs):
    run_case(case, args, kwargs)
