"""``python -m pyadapt``: run a whole program under pyadapt, as ``python`` itself would run it.

The program sees what it would see natively: the same ``sys.argv``, ``sys.path[0]`` and
``__main__`` module (``__name__``, ``__file__``, ``__spec__``, ...), and it ends the same way:
uncaught exceptions print the native traceback (pyadapt's own frames taken out), SystemExit
and KeyboardInterrupt give the native exit status.  Child processes start under pyadapt too,
through ``PYADAPT=1`` in their environment (read by ``pyadapt-autostart.pth``).

The program's code runs with ``exec`` in a fresh module that replaces ``sys.modules["__main__"]``
(as runpy's ``alter_sys`` does), so pickle and multiprocessing find its classes and functions.
The module resolution for ``-m`` and for directories and zip files is runpy's own
(``_get_module_details``, ``_get_main_module_details``: the functions ``python -m`` itself runs
through ``runpy._run_module_as_main``; pdb uses them the same way).
"""
import argparse
import builtins
import importlib.machinery
import importlib.util
import io
import marshal
import os
import runpy
import sys
import types
from collections import namedtuple

import pyadapt

# pyadapt's own options, each declared once: the parser is built from this table, and the
# splitter that finds where the program starts reads from it which options take a value.
# metavar None: a switch; otherwise the option takes one value (``--report DIR``).
_Option = namedtuple("_Option", "flags help metavar type", defaults=(None, str))


def _warmup(text):
    if text == "never":
        return text
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value < 1 << 20:
        raise argparse.ArgumentTypeError(
            f"expected a count of executions (0 to {(1 << 20) - 1}) or 'never', not {text!r}")
    return value


_OPTIONS = (
    _Option(
        ("--no-children",),
        "do not start child processes under pyadapt: PYADAPT is removed from the "
        "environment they inherit (by default it is set to 1)",
    ),
    _Option(
        ("--stats",),
        "at exit, print a summary of what pyadapt did to stderr: instructions, frames, "
        "fallbacks, the families with their hits, misses and hit rates, failed "
        "specializations by kind",
    ),
    _Option(
        ("--stats-json",),
        "at exit, write pyadapt.stats() to FILE as JSON",
        "FILE",
    ),
    _Option(
        ("--report",),
        "at exit, write an HTML report to DIR: one page per source file, each expression "
        "coloured by how it specialized, details on hover; open DIR/index.html",
        "DIR",
    ),
    _Option(
        ("--warmup",),
        "executions of an adaptive instruction before it tries to specialize (default 2, "
        "or PYADAPT_WARMUP; 0: at the first execution; 'never': generic mode)",
        "N",
        _warmup,
    ),
    _Option(
        ("--generic",),
        "generic mode: specialize nothing (the baseline to compare with)",
    ),
)

_USAGE = "python -m pyadapt [options] (script.py | -m module | -c code | -) [args ...]"

_DESCRIPTION = """\
Run a Python program under pyadapt's specializing interpreter, exactly as python runs it:
the same sys.argv, sys.path[0] and __main__ module, the same tracebacks and exit status.

the program (the first argument that is not an option of pyadapt's; everything after it
is passed to the program):
  script.py        a Python file (or a directory or zip file with __main__.py)
  -m module        a module found on sys.path, run as __main__ (like python -m)
  -c code          a string of Python code (like python -c)
  -                the program read from standard input
"""

_EPILOG = """\
Child processes (subprocess, multiprocessing) start under pyadapt too: PYADAPT=1 is put in
their environment, and pyadapt-autostart.pth, installed with pyadapt, starts any Python
process of this environment under pyadapt when PYADAPT=1.  --warmup and --generic apply to
them too (through PYADAPT_WARMUP and PYADAPT_SPECIALIZE=0 in their environment, which
pyadapt reads when it starts).

--stats, --stats-json and --report are produced when the program ends, however it ends
(normally, sys.exit, an uncaught exception or KeyboardInterrupt), after its own atexit
handlers, for this process only; not if it ends with os._exit or is killed by a signal.
"""


def _parser():
    parser = argparse.ArgumentParser(
        prog="python -m pyadapt",
        usage=_USAGE,
        description=_DESCRIPTION,
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,
    )
    for opt in _OPTIONS:
        if opt.metavar is None:
            parser.add_argument(*opt.flags, action="store_true", help=opt.help)
        else:
            parser.add_argument(*opt.flags, metavar=opt.metavar, type=opt.type, help=opt.help)
    return parser


def _split(argv):
    """Split the command line into pyadapt's options and the program.

    Returns ``(options, kind, target, args)``; kind is "script", "-m", "-c" or None (no
    program given).  As on python's own command line, the first argument that is not one of
    pyadapt's options names the program and everything after it belongs to the program, even
    what looks like an option of pyadapt's.
    """
    takes_value = {flag for opt in _OPTIONS if opt.metavar is not None for flag in opt.flags}
    options = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in ("-m", "-c"):
            target = argv[i + 1] if i + 1 < len(argv) else None
            return options, arg, target, argv[i + 2:]
        if arg[:2] in ("-m", "-c"):  # -mjson.tool, -c'print(1)', as python accepts them
            return options, arg[:2], arg[2:], argv[i + 1:]
        if arg == "--":
            target = argv[i + 1] if i + 1 < len(argv) else None
            return options, "script", target, argv[i + 2:]
        if arg == "-" or not arg.startswith("-"):
            return options, "script", arg, argv[i + 1:]
        options.append(arg)
        if arg in takes_value and i + 1 < len(argv):
            options.append(argv[i + 1])
            i += 1
        i += 1
    return options, None, None, []


class _NotFound(Exception):
    """The program to run does not exist; python reports it on one line, without traceback."""


def _absolute(path):
    # What python makes of the script path for __file__: joined to the cwd, not normalized.
    return path if os.path.isabs(path) else os.path.join(os.getcwd(), path)


def _set_path0(entry):
    """Put the program's entry first on sys.path, in place of the cwd that ``-m pyadapt`` put there."""
    if sys.path and sys.path[0] == os.getcwd():
        sys.path[0] = entry
    else:
        sys.path.insert(0, entry)


def _safe_path():
    return getattr(sys.flags, "safe_path", False)  # -P, -I, PYTHONSAFEPATH (3.11+)


def _load_script(path):
    """Code and __main__ attributes of ``python path``; sets sys.path[0] as python does."""
    if path == "-":
        if not _safe_path():
            _set_path0("")
        code = compile(sys.stdin.buffer.read(), "<stdin>", "exec", dont_inherit=True)
        loader = importlib.machinery.BuiltinImporter
        return code, {"__file__": "<stdin>", "__cached__": None, "__loader__": loader}

    filename = _absolute(path)
    if os.path.isdir(filename) or _is_zip(filename):
        # A directory or zip file with __main__.py: it goes first on sys.path (even with -P)
        # and its __main__ module runs, as with ``python dir``.
        _set_path0(filename)
        _, spec, code = runpy._get_main_module_details(_NotFound)
        return code, _module_attrs(spec)

    if not _safe_path():
        _set_path0(os.path.dirname(os.path.realpath(filename)))
    try:
        with io.open_code(filename) as f:
            data = f.read()
    except OSError as exc:
        prog = (getattr(sys, "orig_argv", None) or [sys.executable])[0]
        print(f"{prog}: can't open file {filename!r}: [Errno {exc.errno}] {exc.strerror}",
              file=sys.stderr)
        raise SystemExit(2)
    if data[:4] == importlib.util.MAGIC_NUMBER:  # a compiled .pyc file, as python accepts
        code = marshal.loads(data[16:])
        loader = importlib.machinery.SourcelessFileLoader("__main__", filename)
    else:
        code = compile(data, filename, "exec", dont_inherit=True)
        loader = importlib.machinery.SourceFileLoader("__main__", filename)
    return code, {"__file__": filename, "__cached__": None, "__loader__": loader}


def _is_zip(filename):
    import zipfile

    return os.path.isfile(filename) and zipfile.is_zipfile(filename)


def _load_module(name):
    """Code and __main__ attributes of ``python -m name``: the module's parent packages are
    imported here, under pyadapt, as python -m imports them before running the module."""
    _, spec, code = runpy._get_module_details(name, _NotFound)
    sys.argv[0] = spec.origin
    return code, _module_attrs(spec)


def _module_attrs(spec):
    # What runpy._run_code sets for python -m and for directories and zip files.
    return {
        "__file__": spec.origin,
        "__cached__": spec.cached,
        "__loader__": spec.loader,
        "__package__": spec.parent,
        "__spec__": spec,
    }


def _load_code(source):
    if not _safe_path():
        _set_path0("")
    import linecache

    if hasattr(linecache, "_register_code"):
        # 3.13 keeps the source of -c in linecache, so that its tracebacks show the lines.
        linecache._register_code("<string>", source, "<string>")
    loader = importlib.machinery.BuiltinImporter  # what python's own __main__ starts with
    return compile(source, "<string>", "exec", dont_inherit=True), {"__loader__": loader}


def _new_main(attrs):
    """A ``__main__`` module with the attributes python gives its own before running a program."""
    main = types.ModuleType("__main__")
    main.__dict__.update(__annotations__={}, __builtins__=builtins)
    main.__dict__.update(attrs)
    return main


def _show_native_traceback(keep_runpy):
    """Make the uncaught exception now propagating print as it would natively.

    Python itself prints it (through sys.excepthook) and sets the exit status (1, or death by
    SIGINT for KeyboardInterrupt) once it reaches the top; on the way it passes pyadapt's
    frames and runpy's, which a native run does not have.  The hook installed here takes them
    out of the traceback before the hook in place (python's or the program's) prints it.
    """
    previous = sys.excepthook

    def excepthook(exc_type, exc, tb):
        tb = _native_traceback(tb, keep_runpy)
        if exc is not None:
            exc = exc.with_traceback(tb)  # the default hook prints exc.__traceback__
        previous(exc_type, exc, tb)

    sys.excepthook = excepthook


def _native_traceback(tb, keep_runpy):
    """The traceback without this module's frames and what came before them, except runpy's
    two frames that a native run shows too when python runs the program through runpy."""
    entries = []
    while tb is not None:
        entries.append(tb)
        tb = tb.tb_next
    own = [i for i, entry in enumerate(entries) if entry.tb_frame.f_globals is globals()]
    if not own:
        return entries[0] if entries else None
    kept = [entry for entry in entries[:own[-1]]
            if keep_runpy and entry.tb_frame.f_globals.get("__name__") == "runpy"]
    kept += entries[own[-1] + 1:]
    for entry, after in zip(kept, kept[1:] + [None]):
        entry.tb_next = after
    return kept[0] if kept else None


_kept_for_report = []


def _configure(opts):
    """--warmup and --generic: for this process now, and for its children through the
    environment variables pyadapt reads at import."""
    settings = {}
    if opts.warmup is not None:
        settings["warmup"] = opts.warmup
        os.environ["PYADAPT_WARMUP"] = str(opts.warmup)
    if opts.generic:
        settings["specialize"] = False
        os.environ["PYADAPT_SPECIALIZE"] = "0"
    if settings:
        pyadapt.configure(**settings)


def _at_exit_outputs(opts):
    """Arrange for --stats, --stats-json and --report when the program ends.

    atexit runs its handlers last registered first, so the program's own handlers (registered
    later) run before these, and pyadapt.disable, registered after the writer, runs just
    before it: the writer then runs natively and compiles nothing, so the report shows the
    program and its counts, not the code that writes them.  A child made by os.fork inherits
    the handlers; only this process writes.
    """
    import atexit

    pid = os.getpid()
    # Paths as given on the command line, before the program can change directory.
    stats_json = os.path.abspath(opts.stats_json) if opts.stats_json else None
    report_dir = os.path.abspath(opts.report) if opts.report else None

    def write_outputs():
        if os.getpid() != pid:
            return
        from pyadapt import _report

        err = sys.stderr if sys.stderr is not None else sys.__stderr__
        stats = pyadapt.stats()
        if stats_json:
            import json

            try:
                with open(stats_json, "w", encoding="utf-8") as f:
                    json.dump(stats, f, indent=1)
                    f.write("\n")
            except OSError as exc:
                _warn(err, f"cannot write --stats-json {stats_json}: {exc}")
        if report_dir:
            try:
                index = _report.report(report_dir)
            except Exception as exc:  # never lose the other outputs, nor the exit status
                _warn(err, f"cannot write --report {report_dir}: {type(exc).__name__}: {exc}")
            else:
                _warn(err, f"report written to {index}")
        if opts.stats and err is not None:
            try:
                err.flush()
                err.write("\n" + _report.format_stats(stats))
                err.flush()
            except (OSError, ValueError):  # stderr closed by the program
                pass

    atexit.register(write_outputs)
    atexit.register(pyadapt.disable)  # a C builtin: calling it runs no Python frame


def _warn(stream, message):
    if stream is None:
        return
    try:
        print(f"pyadapt: {message}", file=stream, flush=True)
    except (OSError, ValueError):
        pass


def main(argv=None):
    parser = _parser()
    options, kind, target, args = _split(sys.argv[1:] if argv is None else argv)
    opts = parser.parse_args(options)  # --help, and errors in pyadapt's own options, end here
    if kind is None:
        parser.error("no program to run: give a script, -m module or -c code")
    if target is None:
        parser.error(f"{'script' if kind == 'script' else 'argument ' + kind}: expected one argument")

    if opts.no_children:
        os.environ.pop("PYADAPT", None)
    else:
        os.environ["PYADAPT"] = "1"
    _configure(opts)
    if opts.stats or opts.stats_json or opts.report:
        _at_exit_outputs(opts)

    sys.argv[:] = [target if kind == "script" else kind, *args]
    if not pyadapt.is_enabled():
        pyadapt.enable()
    try:
        if kind == "script":
            code, attrs = _load_script(target)
        elif kind == "-m":
            code, attrs = _load_module(target)
        else:
            code, attrs = _load_code(target)
    except _NotFound as exc:
        # python's own words for a program it cannot find (runpy._run_module_as_main).
        raise SystemExit(f"{sys.executable}: {exc}") from None
    except SystemExit:
        raise
    except BaseException:
        _show_native_traceback(kind == "-m")  # a SyntaxError, or a parent package of -m failing
        raise

    if opts.report:
        # Keep the program's top-level code (and so its unit) alive for the report at exit;
        # otherwise it is freed when exec returns and its page would miss the module level.
        _kept_for_report.append(code)
    main_module = _new_main(attrs)
    sys.modules["__main__"] = main_module
    try:
        if main_module.__spec__ is None:
            # a script or -c: python itself runs it with no frames below the module's
            from . import _core
            _core._exec_toplevel(code, main_module.__dict__)
        else:
            exec(code, main_module.__dict__)   # -m: below it, runpy's frames, as natively
    except SystemExit:
        raise
    except BaseException:
        # python runs a program through runpy when it has a spec: -m, a directory, a zip file.
        _show_native_traceback(main_module.__spec__ is not None)
        raise


if __name__ == "__main__":
    main()
