"""pyadapt: a specializing adaptive interpreter for stock CPython, as an extension module.

    import pyadapt
    pyadapt.run(func, *args, **kwargs)   # func and every Python frame it reaches
    @pyadapt.jit                          # always run this function under pyadapt
    python -m pyadapt script.py           # a whole program

See docs/architecture.md for how it works.
"""
import sys as _sys

__version__ = "0.1.0"

from ._versions import SUPPORTED_VERSIONS, refusal as _refusal

if _refusal() is not None:
    raise ImportError(_refusal())

import types as _types


class _SubinterpreterImportError(ImportError):
    """pyadapt's C core is process-wide state of the main interpreter."""

    autostart_quiet = True   # PYADAPT=1: a subinterpreter runs natively, without a warning


def _in_subinterpreter():
    try:
        import _xxsubinterpreters as interpreters
    except ImportError:
        try:
            import _interpreters as interpreters     # its name from 3.13 on
        except ImportError:   # a build without subinterpreters
            return False
    # 3.13's ids are (id, how it was created) pairs: different interpreters, different pairs
    return interpreters.get_current() != interpreters.get_main()


# The C core is process-wide state set up for one interpreter (pa_core_init would even add
# the builtins to the main interpreter's module, through PyGILState_Ensure): a subinterpreter
# gets a clear ImportError, before the extension is loaded (3.12 refuses to load it, or cffi's
# backend, in an isolated subinterpreter, with an ImportError naming the module).
if _in_subinterpreter():
    raise _SubinterpreterImportError(
        "pyadapt cannot be imported in a subinterpreter: its C core (the frame "
        "evaluation hook, the unit table, the type caches) is bound to the main "
        "interpreter; code in subinterpreters runs natively", name=__name__)

from . import _pyadapt as _core
from ._pyadapt import ffi as _ffi, lib as _lib

if not hasattr(_core, "run"):   # first import in this process
    if _lib.pa_core_init() != 0:
        raise ImportError("pyadapt: the C core failed to initialize")

from . import _compiler

__all__ = ["run", "jit", "configure", "config", "stats", "reset_stats", "unit_info",
           "dis", "distb", "get_instructions", "report", "enable", "disable", "is_enabled"]

run = _core.run
enable = _core.enable
disable = _core.disable
is_enabled = _core.is_enabled


def config():
    """The current configuration: specialize (bool), warmup (int), compile_after (int),
    record_sites (bool)."""
    c = _lib.pa_config
    return {"specialize": bool(c.specialize), "warmup": c.warmup,
            "compile_after": c.compile_after, "record_sites": bool(c.record_sites)}


def configure(*, specialize=None, warmup=None, compile_after=None, record_sites=None):
    """Set pyadapt's mode.

    specialize=False is generic mode: no adaptive instructions, no specialization, no
    superinstructions -- the baseline of every comparison.  warmup is how many times an
    adaptive instruction runs generically before it tries to specialize (0: at once;
    "never" is the same as specialize=False).  Every unit already compiled is re-quickened
    in place, so the setting applies to all code from now on.

    compile_after applies to whole-process mode (``python -m pyadapt``, ``PYADAPT=1``,
    ``enable()``): how many frames of a code object CPython's own loop runs before pyadapt
    compiles it and runs the rest ("cold" frames, counted in ``stats()["fallbacks"]``).
    0 compiles every code object at its first frame.  Inside ``run()`` and for ``@jit``
    functions everything runs in pyadapt at once, whatever it says.

    record_sites=True (the default in a process that imports pyadapt) keeps, per site, what
    each specialization attempt met -- the operands' types and what came of them -- which
    ``stats()["sites"]``, ``--stats``, ``--stats-json`` and the report show.  False records
    nothing, and attempts cost only their specialization: ``python -m pyadapt`` without
    those options and ``PYADAPT=1`` run so.  Attempts made while it is off are not recorded
    later.
    """
    current = config()
    if warmup == "never":
        specialize, warmup = False, current["warmup"]
    if specialize is None:
        specialize = current["specialize"]
    if warmup is None:
        warmup = current["warmup"]
    from ._word import MAX_WARMUP
    if not isinstance(warmup, int) or isinstance(warmup, bool) or not 0 <= warmup <= MAX_WARMUP:
        raise ValueError("warmup must be an int in [0, %d] or 'never', not %r"
                         % (MAX_WARMUP, warmup))
    if compile_after is not None and (not isinstance(compile_after, int)
                                      or isinstance(compile_after, bool)
                                      or not 0 <= compile_after < 1 << 31):
        raise ValueError("compile_after must be an int in [0, 2**31), not %r" % (compile_after,))
    if record_sites is not None and not isinstance(record_sites, bool):
        raise TypeError("record_sites must be True or False, not %r" % (record_sites,))
    _core._configure(bool(specialize), warmup)
    if record_sites is not None:
        _lib.pa_config.record_sites = record_sites
    if compile_after is not None:
        _lib.pa_config.compile_after = compile_after


def _configure_from_environment():
    import os
    spec = os.environ.get("PYADAPT_SPECIALIZE")
    warmup = os.environ.get("PYADAPT_WARMUP")
    compile_after = os.environ.get("PYADAPT_COMPILE_AFTER")
    kwargs = {}
    if spec is not None:
        kwargs["specialize"] = spec not in ("0", "", "false", "no", "off")
    if warmup is not None:
        kwargs["warmup"] = "never" if warmup == "never" else int(warmup)
    if compile_after is not None:
        kwargs["compile_after"] = int(compile_after)
    if kwargs:
        configure(**kwargs)


_configure_from_environment()


def _mark_jit(code):
    _core.mark_jit(code)
    for const in code.co_consts:
        if isinstance(const, _types.CodeType):
            _mark_jit(const)


def jit(func=None, /):
    """Decorator: every call of `func` (and of the functions nested in it) runs under
    pyadapt, wherever it is called from and wherever its generators are resumed.

    Usable as ``@pyadapt.jit`` and ``@pyadapt.jit()``.  Returns the function itself, so
    its name, docstring, signature and attributes are unchanged.
    """
    if func is None:
        return jit
    if not isinstance(func, _types.FunctionType):
        raise TypeError(
            "pyadapt.jit() accepts a Python function (def or lambda), not %s"
            % type(func).__name__
        )
    _mark_jit(func.__code__)
    return func


# What only introspection and the report need is imported at first use: ``import pyadapt``
# stays cheap (the report alone imports hashlib, html, tokenize and textwrap).
_LAZY = {"dis": "_introspect", "distb": "_introspect", "get_instructions": "_introspect",
         "reset_stats": "_introspect", "stats": "_introspect", "report": "_report"}


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    # Imported natively: the program's statistics and report must not show pyadapt's own
    # modules (and dis, which introspection imports) compiled at its first pyadapt.stats().
    enabled = _core.is_enabled()
    if enabled:
        _core.disable()
    try:
        __import__(f"{__name__}.{module}")
    finally:
        if enabled:
            _core.enable()
    value = getattr(_sys.modules[f"{__name__}.{module}"], name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))


def _code_of(obj):
    if isinstance(obj, _types.CodeType):
        return obj
    code = getattr(obj, "__code__", None)
    if isinstance(code, _types.CodeType):
        return code
    func = getattr(obj, "__func__", None)
    if func is not None:
        return _code_of(func)
    raise TypeError("expected a function, method or code object, not %s"
                    % type(obj).__name__)


def unit_info(obj):
    """What pyadapt holds for a function's code object: None if it never saw it."""
    addr = _core.unit_address(_code_of(obj))
    if not addr:
        return None
    unit = _ffi.cast("pa_unit *", addr)
    reason = unit.reject_reason
    return {
        "entries": unit.entries,
        "rejected": _ffi.string(_lib.pa_fallback_names[reason]).decode() if reason else None,
        "rejected_because": (_ffi.string(unit.reject_detail).decode()
                             if reason and unit.reject_detail else None),
        "jit": bool(unit.flags & _lib.PA_UNIT_JIT),
        "code_units": unit.ncode,
    }
