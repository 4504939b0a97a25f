"""Differential harness: run code natively, then under pyadapt, and compare everything observable.

What is compared, for every pyadapt run against the one native run:

* the return value (``same``: NaN-aware, sign-of-zero aware, structural for containers and for
  instances that compare by identity, address-free ``repr`` where ``==`` means nothing);
* or the exception: type, ``str()``, ``__notes__``, the traceback as (file, qualname, source
  position) of the test's own frames, the ``__cause__`` / ``__context__`` chain and the members
  of exception groups, recursively;
* what was printed to ``sys.stdout``;
* side effects, through an ``observe()`` callable a factory may return.

Every pyadapt run must also *prove* it was pyadapt: the unit of the function under test (and of
any code named in ``also``) must count new entries, and ``stats()["frames"]`` (frames pyadapt's
loop evaluated) must grow.
A silent fallback to the native loop fails the test.

pyadapt runs follow ``SCHEDULE``: 1, 2 and 20 back-to-back ``pyadapt.run`` calls (later calls see
a warmed-up, specialized unit), and a round where the function is called *from* code pyadapt is
already running (the Python-to-Python call path, which pyadapt inlines).
"""

import contextlib
import io
import os
import re
import subprocess
import sys
import textwrap
import types
from dataclasses import dataclass, field

import pytest

import pyadapt

HARNESS_FILE = os.path.abspath(__file__)
TESTS_DIR = os.path.dirname(HARNESS_FILE)
PYADAPT_DIR = os.path.dirname(os.path.abspath(pyadapt.__file__))

# (mode, repetitions). "run": pyadapt.run(func, ...) from native code.
# "nested": pyadapt.run(_call_nested, func, ...): func is called by a frame pyadapt runs.
SCHEDULE = (("run", 1), ("run", 2), ("nested", 2), ("run", 20))

# Every schedule runs under each configuration: generic mode (the baseline: nothing
# specializes) and adaptive mode with warmups 0 (specialize on first sight), 2 (the default)
# and 50 (most sites stay adaptive in a short case).  configure() re-quickens every unit, so
# each configuration starts from the code as compiled.
CONFIGS = (
    {"specialize": False},
    {"specialize": True, "warmup": 0},
    {"specialize": True, "warmup": 2},
    {"specialize": True, "warmup": 50},
)
DEFAULT_CONFIG = {"specialize": True, "warmup": 2}

_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


def _strip_addresses(text):
    return _ADDRESS.sub("0x?", text)


# --------------------------------------------------------------------------------------------
# Comparing values


def _tname(t):
    return f"{getattr(t, '__module__', '?')}.{getattr(t, '__qualname__', getattr(t, '__name__', repr(t)))}"


def _safe_repr(obj, limit=400):
    try:
        text = repr(obj)
    except BaseException as e:  # noqa: BLE001 - a repr that fails must not hide the diff
        text = f"<repr failed: {type(e).__name__}: {e}>"
    text = _strip_addresses(text)
    if len(text) > limit:
        text = text[: limit - 15] + " ...<truncated>"
    return text


_ATOMS = (int, str, bytes, bytearray, bool, type(None), type(Ellipsis), type(NotImplemented), range)


def diff(a, b, path="value", _active=None):
    """Return None if ``a`` and ``b`` are observably the same, else a description of the first difference.

    Objects from two runs of a factory are distinct objects of distinct (but identically named)
    classes, so types compare by module and qualified name, and instances without their own
    ``__eq__`` compare by their attributes.
    """
    if a is b:
        return None
    if _active is None:
        _active = set()
    key = (id(a), id(b))
    if key in _active:  # recursive structure: assume equal on the cycle
        return None
    ta, tb = type(a), type(b)
    if _tname(ta) != _tname(tb):
        return f"{path}: type {_tname(ta)} != {_tname(tb)}"
    if isinstance(a, (float, complex)):
        # repr distinguishes -0.0 from 0.0 and treats all NaNs alike, unlike ==.
        if repr(a) != repr(b):
            return f"{path}: {a!r} != {b!r}"
        return None
    if isinstance(a, _ATOMS):
        if a != b:
            return f"{path}: {_safe_repr(a)} != {_safe_repr(b)}"
        return _diff_attrs(a, b, path, _active) if hasattr(a, "__dict__") else None
    if isinstance(a, type):
        if _tname(a) != _tname(b):
            return f"{path}: class {_tname(a)} != {_tname(b)}"
        return None
    if isinstance(a, (types.FunctionType, types.BuiltinFunctionType, types.MethodType, types.ModuleType, types.CodeType)):
        na = getattr(a, "__qualname__", getattr(a, "__name__", None)) or _safe_repr(a)
        nb = getattr(b, "__qualname__", getattr(b, "__name__", None)) or _safe_repr(b)
        if na != nb:
            return f"{path}: {na} != {nb}"
        return None
    if isinstance(a, BaseException):
        sa, sb = summarize_exception(a), summarize_exception(b)
        d = _diff_summary(sa, sb, path)
        return d
    _active.add(key)
    try:
        if isinstance(a, (list, tuple)):
            if len(a) != len(b):
                return f"{path}: length {len(a)} != {len(b)}: {_safe_repr(a)} != {_safe_repr(b)}"
            for i, (x, y) in enumerate(zip(a, b)):
                d = diff(x, y, f"{path}[{i}]", _active)
                if d:
                    return d
            return _diff_attrs(a, b, path, _active) if hasattr(a, "__dict__") else None
        if isinstance(a, dict):
            ka, kb = list(a.keys()), list(b.keys())
            d = diff(ka, kb, f"{path}.keys()", _active)
            if d:
                return d
            for i, (x, y) in enumerate(zip(a.values(), b.values())):
                d = diff(x, y, f"{path}[{_safe_repr(ka[i], 60)}]", _active)
                if d:
                    return d
            return _diff_attrs(a, b, path, _active) if hasattr(a, "__dict__") else None
        if isinstance(a, (set, frozenset)):
            try:
                if a == b:
                    return None
            except Exception:  # noqa: BLE001
                pass
            ra, rb = sorted(map(_safe_repr, a)), sorted(map(_safe_repr, b))
            if ra != rb:
                return f"{path}: {_safe_repr(a)} != {_safe_repr(b)}"
            return None
        if ta.__eq__ is not object.__eq__:
            try:
                eq = a == b
                if eq is True or (type(eq) is not bool and bool(eq)):
                    return None
                if ta is tb:
                    return f"{path}: {_safe_repr(a)} != {_safe_repr(b)} (by ==)"
                # Twin classes from two factory runs: their __eq__ often checks the class itself,
                # so compare the state instead.
            except Exception:  # noqa: BLE001 - fall back to structure / repr
                pass
        if hasattr(a, "__dict__") or _slot_names(ta):
            return _diff_attrs(a, b, path, _active)
        ra, rb = _safe_repr(a), _safe_repr(b)
        if ra != rb:
            return f"{path}: {ra} != {rb}"
        return None
    finally:
        _active.discard(key)


def _slot_names(t):
    names = []
    for klass in t.__mro__:
        slots = klass.__dict__.get("__slots__", ())
        if isinstance(slots, str):
            slots = (slots,)
        names.extend(s for s in slots if s not in ("__dict__", "__weakref__"))
    return names


def _diff_attrs(a, b, path, active):
    da = getattr(a, "__dict__", None)
    db = getattr(b, "__dict__", None)
    if da is not None or db is not None:
        if not isinstance(da, dict) or not isinstance(db, dict):
            return f"{path}.__dict__: {_safe_repr(da)} != {_safe_repr(db)}"
        d = diff(dict(da), dict(db), f"{path}.__dict__", active)
        if d:
            return d
    for name in _slot_names(type(a)):
        va = getattr(a, name, _MISSING)
        vb = getattr(b, name, _MISSING)
        d = diff(va, vb, f"{path}.{name}", active)
        if d:
            return d
    return None


class _Missing:
    def __repr__(self):
        return "<unset>"


_MISSING = _Missing()


def same(a, b):
    return diff(a, b) is None


# --------------------------------------------------------------------------------------------
# Exceptions


def _is_own_frame(filename):
    path = os.path.abspath(filename) if not filename.startswith("<") else filename
    return path != HARNESS_FILE and not path.startswith(PYADAPT_DIR + os.sep)


_positions_cache = {}


def _position(code, lasti):
    """Source position (line, end line, column, end column) of the instruction at ``lasti``."""
    positions = _positions_cache.get(code)
    if positions is None:
        positions = _positions_cache[code] = list(code.co_positions())
    index = lasti // 2
    if 0 <= index < len(positions):
        return positions[index]
    return ("bad tb_lasti", lasti)


def traceback_frames(tb):
    """The test's own frames of a traceback: (file, qualname, tb_lineno, source position)."""
    frames = []
    while tb is not None:
        code = tb.tb_frame.f_code
        if _is_own_frame(code.co_filename):
            frames.append(
                (
                    os.path.basename(code.co_filename),
                    code.co_qualname,
                    tb.tb_lineno,
                    _position(code, tb.tb_lasti),
                )
            )
        tb = tb.tb_next
    return tuple(frames)


def summarize_exception(exc, _memo=None):
    """A plain, comparable description of an exception and everything chained to it."""
    if exc is None:
        return None
    if _memo is None:
        _memo = {}
    if id(exc) in _memo:  # same object reached twice: record which one, so identity is compared too
        return ("<same exception as #%d>" % _memo[id(exc)],)
    _memo[id(exc)] = len(_memo)
    try:
        message = str(exc)
    except BaseException as e:  # noqa: BLE001
        message = f"<str() failed: {type(e).__name__}>"
    summary = {
        "type": _tname(type(exc)),
        "message": _strip_addresses(message),
        "notes": tuple(_strip_addresses(str(n)) for n in getattr(exc, "__notes__", ())),
        "traceback": traceback_frames(exc.__traceback__),
        "suppress_context": exc.__suppress_context__,
        "cause": summarize_exception(exc.__cause__, _memo),
        "context": summarize_exception(exc.__context__, _memo),
    }
    if isinstance(exc, BaseExceptionGroup):
        summary["group"] = tuple(summarize_exception(e, _memo) for e in exc.exceptions)
    if isinstance(exc, (StopIteration, StopAsyncIteration)) and exc.args:
        summary["value"] = _safe_repr(exc.args[0])
    return summary


def _diff_summary(sa, sb, path):
    if sa == sb:
        return None
    if not isinstance(sa, dict) or not isinstance(sb, dict):
        return f"{path}: {sa!r} != {sb!r}"
    for k in sorted(set(sa) | set(sb)):
        va, vb = sa.get(k), sb.get(k)
        if va == vb:
            continue
        if k in ("cause", "context"):
            return _diff_summary(va, vb, f"{path}.__{k}__")
        if k == "group":
            if len(va) != len(vb):
                return f"{path}.exceptions: {len(va)} members != {len(vb)}"
            for i, (x, y) in enumerate(zip(va, vb)):
                d = _diff_summary(x, y, f"{path}.exceptions[{i}]")
                if d:
                    return d
        if k == "traceback":
            return f"{path} traceback:\n      native : {_fmt_tb(va)}\n      pyadapt: {_fmt_tb(vb)}"
        return f"{path} {k}: {va!r} != {vb!r}"
    return f"{path}: {sa!r} != {sb!r}"


def _fmt_tb(frames):
    return " -> ".join(f"{q}@{line}{tuple(pos[1:]) if len(pos) == 4 else pos}" for _f, q, line, pos in frames) or "(none)"


def format_summary(summary, indent="  "):
    if summary is None:
        return f"{indent}None"
    if not isinstance(summary, dict):
        return f"{indent}{summary}"
    lines = [f"{indent}{summary['type']}: {summary['message']}"]
    if summary["notes"]:
        lines.append(f"{indent}  notes: {summary['notes']}")
    for f, q, line, pos in summary["traceback"]:
        lines.append(f"{indent}  at {f}:{line} in {q} {pos}")
    for member in summary.get("group", ()):
        lines.append(f"{indent}  member:")
        lines.append(format_summary(member, indent + "    "))
    if summary["cause"] is not None:
        lines.append(f"{indent}  __cause__:")
        lines.append(format_summary(summary["cause"], indent + "    "))
    if summary["context"] is not None:
        lines.append(f"{indent}  __context__{' (suppressed)' if summary['suppress_context'] else ''}:")
        lines.append(format_summary(summary["context"], indent + "    "))
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# Running one case


@dataclass
class Outcome:
    value: object = None
    exception: dict = None  # summarize_exception(...) or None
    stdout: str = ""
    observed: object = None
    has_observer: bool = False
    label: str = "native"
    notes: list = field(default_factory=list)

    def describe(self):
        lines = [f"[{self.label}]"]
        if self.exception is None:
            lines.append(f"  returned: {_safe_repr(self.value, 2000)}")
        else:
            lines.append("  raised:")
            lines.append(format_summary(self.exception, "    "))
        if self.stdout:
            lines.append("  stdout: " + _safe_repr(self.stdout, 2000))
        if self.has_observer:
            lines.append(f"  side effects: {_safe_repr(self.observed, 2000)}")
        return "\n".join(lines)


def _call_nested(func, args, kwargs):
    # Run by pyadapt: func is reached through a Python-to-Python call.
    return func(*args, **kwargs)


def _unpack_made(made):
    if isinstance(made, tuple) and len(made) == 2 and callable(made[0]) and callable(made[1]):
        return made
    if not callable(made):
        raise TypeError(f"factory must return a callable or (callable, observe), got {made!r}")
    return made, None


def _capture(call, observe, label):
    buf = io.StringIO()
    out = Outcome(label=label, has_observer=observe is not None)
    try:
        with contextlib.redirect_stdout(buf):
            out.value = call()
    except BaseException as exc:  # noqa: BLE001 - every exception is an outcome to compare
        out.exception = summarize_exception(exc)
        del exc
    out.stdout = buf.getvalue()
    if observe is not None:
        out.observed = observe()
    return out


def code_of(obj):
    """The code object pyadapt's unit for ``obj`` is attached to."""
    seen = 0
    while seen < 20:
        seen += 1
        if isinstance(obj, types.CodeType):
            return obj
        if isinstance(obj, types.FunctionType):
            return obj.__code__
        if isinstance(obj, types.MethodType):
            obj = obj.__func__
            continue
        if hasattr(obj, "func") and hasattr(obj, "args") and hasattr(obj, "keywords"):  # functools.partial
            obj = obj.func
            continue
        if hasattr(obj, "__wrapped__"):
            obj = obj.__wrapped__
            continue
        call = getattr(type(obj), "__call__", None)
        if isinstance(call, types.FunctionType):
            return call.__code__
        break
    raise TypeError(f"harness: cannot find the Python code object of {obj!r}")


def nested_code(root, name):
    """The code object named ``name`` defined (at any depth) inside ``root``'s code."""
    stack = [code_of(root)]
    while stack:
        code = stack.pop()
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                if const.co_name == name or const.co_qualname.endswith("." + name) or const.co_qualname == name:
                    return const
                stack.append(const)
    raise LookupError(f"harness: no code named {name!r} inside {code_of(root).co_qualname}")


def _entries(code):
    info = pyadapt.unit_info(code)
    if info is None:
        return 0
    return info["entries"]


def _frames():
    return pyadapt.stats()["frames"]


def _fallbacks():
    return dict(pyadapt.stats().get("fallbacks", {}))


def _resolve_also(root, also):
    codes = []
    for item in also:
        if isinstance(item, str):
            codes.append(nested_code(root, item))
        else:
            codes.append(code_of(item))
    return codes


def attributes_in_dict_only(o):
    """Leave o's attributes in its __dict__ alone, where LOAD_ATTR_WITH_HINT and
    STORE_ATTR_WITH_HINT read them, and return that dict.  Materializing the dict does that
    on 3.11 and 3.12; 3.13 keeps the values inline beside a materialized dict (natively too:
    LOAD_ATTR_INSTANCE_VALUE goes on hitting) until the dict is replaced."""
    if sys.version_info >= (3, 13):
        o.__dict__ = dict(o.__dict__)
    return o.__dict__


def check(func=None, args=(), kwargs=None, *, make=None, also=(), schedule=SCHEDULE, name=None,
          configs=CONFIGS):
    """Run natively once, then under pyadapt per ``schedule``; fail on any observable difference.

    Give either ``func`` (called with ``args``/``kwargs`` every time) or ``make``: a factory called
    before every run (natively) that returns a fresh callable, or a pair ``(callable, observe)``
    where ``observe()`` returns the side effects to compare after the call.
    ``also``: functions, code objects, or names of code nested in the case, that pyadapt must
    have entered during every run (frames reached from C, for example).
    ``configs``: the configurations to compare in (all of CONFIGS unless a case says why not).
    """
    if kwargs is None:
        kwargs = {}
    if (func is None) == (make is None):
        raise TypeError("check() needs exactly one of func or make")
    if pyadapt.is_enabled():
        raise AssertionError("pyadapt is enabled process-wide: the native run would not be native")

    def fresh():
        if make is None:
            return func, None
        return _unpack_made(make())

    target, observe = fresh()
    case_name = name or getattr(make or func, "__qualname__", repr(make or func))
    also_codes = _resolve_also(make or func, also)

    native = _capture(lambda: target(*args, **kwargs), observe, "native")

    try:
        for config in configs:
            pyadapt.configure(**config)
            _run_schedule(native, fresh, args, kwargs, also_codes, schedule, case_name, config)
    finally:
        pyadapt.configure(**DEFAULT_CONFIG)
    return native.value


def _run_schedule(native, fresh, args, kwargs, also_codes, schedule, case_name, config):
    total = sum(n for _m, n in schedule)
    index = 0
    for mode, reps in schedule:
        for rep in range(reps):
            index += 1
            target, observe = fresh()
            code = code_of(target)
            watched = [code] + also_codes
            before = [_entries(c) for c in watched]
            frames_before = _frames()
            fallbacks_before = _fallbacks()
            if mode == "run":
                call = lambda: pyadapt.run(target, *args, **kwargs)  # noqa: E731
            elif mode == "nested":
                call = lambda: pyadapt.run(_call_nested, target, args, kwargs)  # noqa: E731
            else:
                raise ValueError(mode)
            label = (f"pyadapt {config}, {mode} round x{reps}, call {rep + 1}/{reps} "
                     f"({index}/{total} overall)")
            result = _capture(call, observe, label)
            after = [_entries(c) for c in watched]
            frames_after = _frames()

            problems = _compare(native, result)
            if problems:
                pytest.fail(
                    f"pyadapt diverged from native CPython in {case_name}, {label}:\n"
                    f"  {problems}\n{native.describe()}\n{result.describe()}",
                    pytrace=False,
                )
            not_entered = [c for c, b, a in zip(watched, before, after) if not a > b]
            if not_entered or not frames_after > frames_before:
                fb_after = _fallbacks()
                fb_delta = {k: v - fallbacks_before.get(k, 0) for k, v in fb_after.items() if v != fallbacks_before.get(k, 0)}
                details = "\n".join(
                    f"  {c.co_qualname} ({os.path.basename(c.co_filename)}:{c.co_firstlineno}): "
                    f"entries {b} -> {a}, unit_info={pyadapt.unit_info(c)!r}"
                    for c, b, a in zip(watched, before, after)
                )
                pytest.fail(
                    f"pyadapt did not run {case_name} ({label}); results matched, but the proof of "
                    f"execution failed:\n{details}\n  frames {frames_before} -> {frames_after}\n"
                    f"  fallbacks during the run: {fb_delta}",
                    pytrace=False,
                )


def _compare(native, other):
    if (native.exception is None) != (other.exception is None):
        return "one side returned, the other raised"
    if native.exception is None:
        d = diff(native.value, other.value, "return value")
        if d:
            return d
    else:
        d = _diff_summary(native.exception, other.exception, "exception")
        if d:
            return d
    if native.stdout != other.stdout:
        return f"stdout differs: {native.stdout!r} != {other.stdout!r}"
    if native.has_observer:
        d = diff(native.observed, other.observed, "side effects")
        if d:
            return d
    return None


def differential(func, *args, **kwargs):
    """Compare ``func(*args, **kwargs)`` natively and under pyadapt (same func, same args each run)."""
    return check(func, args, kwargs)


def differential_factory(make, *args, **kwargs):
    """Like ``differential``, but ``make()`` builds fresh state before every run.

    ``make()`` returns the callable, or ``(callable, observe)``; ``observe()`` is called after
    the run (whether it returned or raised) and its result is compared as a side effect.
    """
    return check(make=make, args=args, kwargs=kwargs)


# --------------------------------------------------------------------------------------------
# Case collection: module-level ``case_*`` functions become parametrized tests.


def with_args(*args, **kwargs):
    """Decorator: run this case with these arguments (stack it to run several argument sets)."""

    def deco(f):
        f.__dict__.setdefault("_diff_arg_sets", []).insert(0, (args, kwargs))
        return f

    return deco


def factory(f):
    """Decorator: the case is a factory (see ``differential_factory``)."""
    f._diff_factory = True
    return f


def entered(*items):
    """Decorator: these functions / code objects / nested code names must run under pyadapt too."""

    def deco(f):
        f._diff_also = tuple(items)
        return f

    return deco


def collect(namespace, prefix="case_"):
    """pytest params for every ``case_*`` callable in ``namespace`` (in definition order)."""
    params = []
    for key, obj in list(namespace.items()):
        if not key.startswith(prefix) or not callable(obj):
            continue
        short = key[len(prefix):]
        arg_sets = getattr(obj, "_diff_arg_sets", None)
        if not arg_sets:
            params.append(pytest.param(obj, (), {}, id=short))
        else:
            for i, (a, k) in enumerate(arg_sets):
                params.append(pytest.param(obj, a, k, id=f"{short}[{i}]" if len(arg_sets) > 1 else short))
    return params


def run_case(case, args=(), kwargs=None):
    also = getattr(case, "_diff_also", ())
    if getattr(case, "_diff_factory", False):
        return check(make=case, args=args, kwargs=kwargs or {}, also=also, name=case.__qualname__)
    return check(case, args, kwargs or {}, also=also, name=case.__qualname__)


# --------------------------------------------------------------------------------------------
# Subprocesses: for what could crash the interpreter (deep recursion), so a crash fails one test.


def run_python(source, timeout=120, env=None):
    """Run ``source`` with ``python -X faulthandler -c``; the tests directory is importable."""
    full_env = dict(os.environ)
    # the tests directory (harness), wherever this pyadapt was imported from, then the caller's path
    paths = (TESTS_DIR, os.path.dirname(PYADAPT_DIR), full_env.get("PYTHONPATH", ""))
    full_env["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
    if env:
        full_env.update(env)
    return subprocess.run(
        [sys.executable, "-X", "faulthandler", "-c", textwrap.dedent(source)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=full_env,
        cwd=TESTS_DIR,
    )


def assert_subprocess_ok(proc, expected_stdout=None):
    detail = f"return code {proc.returncode}\n--- stdout ---\n{proc.stdout[-4000:]}\n--- stderr ---\n{proc.stderr[-4000:]}"
    assert proc.returncode == 0, f"subprocess failed (a negative code is a signal, e.g. -11 = SIGSEGV): {detail}"
    if expected_stdout is not None:
        assert proc.stdout == expected_stdout, f"unexpected output: {detail}\n--- expected ---\n{expected_stdout}"
