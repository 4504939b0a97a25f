"""``python -m pyadapt``: run a whole program under pyadapt, as ``python`` itself would run it.

The program sees what it would see natively: the same ``sys.argv``, ``sys.path[0]`` and
``__main__`` module (``__name__``, ``__file__``, ``__spec__``, ...), the same stack (nothing
below a script's or ``-c``'s module frame; runpy's ``_run_module_as_main`` and ``_run_code``
below a ``-m`` module, a directory's or a zip file's ``__main__``), and it ends the same way:
uncaught exceptions print the native traceback, SystemExit and KeyboardInterrupt give the
native exit status.  Child processes start under pyadapt too, through ``PYADAPT=1`` in their
environment (read by ``pyadapt-autostart.pth``).

The launcher does all its own work natively -- its imports, the command line, finding and
compiling the program -- and enables pyadapt only at the last moment, so that pyadapt compiles
and counts only the program and what it imports.  The program's top level is then called
through ``pyadapt._pyadapt._call_toplevel``, which unlinks the launcher's frames for the
duration of the call: a script's or ``-c``'s code runs with ``exec`` in a fresh module that
replaces ``sys.modules["__main__"]`` (as runpy's ``alter_sys`` does, so pickle and
multiprocessing find its classes), and ``-m``, directories and zip files run through runpy's
own ``_run_module_as_main`` -- the function ``python -m`` itself calls -- so their module
resolution, error messages and frames are python's.

With no program (or ``-``) and an interactive standard input, the program is python's own
interactive loop (``PyRun_InteractiveLoopFlags``), every statement under pyadapt.

Only the standard library modules that ``python -m`` has imported before running any module
(runpy and what it imports) are imported here; argparse only for ``--help`` and for errors.
"""
import io
import os
import sys

import pyadapt
from pyadapt import _pyadapt as _core, _word

# pyadapt's own options, each declared once: the help is built from this table, and the
# parser that finds where the program starts reads from it which options take a value.
# (flags, attribute, metavar or None for a switch, help)
_OPTIONS = (
    (("--no-children",), "no_children", None,
     "do not start child processes under pyadapt: PYADAPT is removed from the environment "
     "they inherit (by default it is set to 1)"),
    (("--stats",), "stats", None,
     "at exit, print a summary of what pyadapt did to stderr: instructions, frames, "
     "fallbacks, the families with their hits, misses and hit rates, failed "
     "specializations by kind"),
    (("--stats-top",), "stats_top", "N",
     "with --stats (implied): how many sites the summary lists by misses and by failed "
     "specializations, with file:line:column (default 10; 0: none)"),
    (("--stats-json",), "stats_json", "FILE",
     "at exit, write the statistics to FILE as JSON: the run (mode, warmup, pyadapt and "
     "Python versions, the program), pyadapt.stats()'s totals, and a record per site that "
     "ran (file, line, column, instruction, form, hits, misses, backoff, last failure)"),
    (("--report",), "report", "DIR",
     "at exit, write an HTML report to DIR: one page per source file, each expression "
     "coloured by how it specialized, details on hover; open DIR/index.html"),
    (("--report-only",), "report_only", "PATH",
     "with --report: pages only for the files at PATH -- a file, a directory (every file "
     "under it) or a glob pattern ('src/*.py'); repeat it for more paths"),
    (("--warmup",), "warmup", "N",
     "executions of an adaptive instruction before it tries to specialize (default 2, "
     "or PYADAPT_WARMUP; 0: at the first execution; 'never': generic mode)"),
    (("--compile-after",), "compile_after", "N",
     "frames of a code object that CPython's own loop runs before pyadapt compiles it "
     "(default 2, or PYADAPT_COMPILE_AFTER; 0: compile every code object at its first "
     "frame); the program's own top-level code is compiled at once"),
    (("--generic",), "generic", None,
     "generic mode: specialize nothing (the baseline to compare with)"),
    (("-i",), "inspect", None,
     "inspect interactively after running the program, as python -i does (the "
     "interactive console runs under pyadapt too)"),
    (("--version",), "version", None, "print pyadapt's version and exit"),
)
_BY_FLAG = {flag: opt for opt in _OPTIONS for flag in opt[0]}
_REPEATABLE = {"report_only"}   # each use adds a value to a list

_USAGE = "python -m pyadapt [options] [script.py | -m module | -c code | -] [args ...]"

_DESCRIPTION = """\
Run a Python program under pyadapt's specializing interpreter, exactly as python runs it:
the same sys.argv, sys.path[0] and __main__ module, the same stack, tracebacks and exit
status.

the program (the first argument that is not an option of pyadapt's; everything after it
is passed to the program):
  script.py        a Python file (or a directory or zip file with __main__.py)
  -m module        a module found on sys.path, run as __main__ (like python -m)
  -c code          a string of Python code (like python -c)
  -                the program read from standard input
  (nothing)        the interactive console, like python's, when standard input is a
                   terminal; otherwise the program read from standard input
"""

_EPILOG = """\
Child processes (subprocess, multiprocessing) start under pyadapt too: PYADAPT=1 is put in
their environment, and pyadapt-autostart.pth, installed with pyadapt, starts any Python
process of this environment under pyadapt when PYADAPT=1.  --warmup, --compile-after and
--generic apply to them too (through PYADAPT_WARMUP, PYADAPT_COMPILE_AFTER and
PYADAPT_SPECIALIZE=0 in their environment, which pyadapt reads when it starts).

--stats, --stats-json and --report are produced when the program ends, however it ends
(normally, sys.exit, an uncaught exception or KeyboardInterrupt), after its own atexit
handlers, for this process only; not if it ends with os._exit or is killed by a signal.
"""


def _parser():
    """The argparse parser, for --help and for the usage line of errors only."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m pyadapt",
        usage=_USAGE,
        description=_DESCRIPTION,
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,
    )
    for flags, dest, metavar, help_text in _OPTIONS:
        if metavar is None:
            parser.add_argument(*flags, dest=dest, action="store_true", help=help_text)
        else:
            parser.add_argument(*flags, dest=dest, metavar=metavar, help=help_text,
                                action="append" if dest in _REPEATABLE else "store")
    return parser


def _usage_error(message):
    _parser().error(message)   # prints the usage and the message, exits with status 2


class _Options:
    """pyadapt's options as given: one attribute per entry of _OPTIONS."""

    def __init__(self):
        for _, dest, metavar, _ in _OPTIONS:
            setattr(self, dest, False if metavar is None else None)


def _parse(argv):
    """Split the command line into pyadapt's options and the program.

    Returns ``(options, kind, target, args)``; kind is "script", "-m", "-c" or None (no
    program given: standard input).  As on python's own command line, the first argument that
    is not one of pyadapt's options names the program and everything after it belongs to the
    program, even what looks like an option of pyadapt's.  Errors end here (status 2).
    """
    opts = _Options()
    last_value = None   # (flag, value) of the last option that took a value
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in ("-h", "--help"):
            _parser().print_help()
            raise SystemExit(0)
        if arg in ("-m", "-c"):
            if i + 1 >= len(argv):
                _usage_error(f"argument {arg}: expected one argument")
            return _checked(opts, last_value, True), arg, argv[i + 1], argv[i + 2:]
        if arg[:2] in ("-m", "-c"):  # -mjson.tool, -c'print(1)', as python accepts them
            return _checked(opts, last_value, True), arg[:2], arg[2:], argv[i + 1:]
        if arg == "--":
            if i + 1 >= len(argv):
                return _checked(opts, last_value, False), None, None, []
            return _checked(opts, last_value, True), "script", argv[i + 1], argv[i + 2:]
        if arg == "-" or not arg.startswith("-"):
            return _checked(opts, last_value, True), "script", arg, argv[i + 1:]
        flag, eq, value = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        opt = _BY_FLAG.get(flag)
        if opt is None:
            hint = ""
            if not arg.startswith("--"):
                hint = (f" (python's own options go before -m pyadapt: python {arg} -m "
                        f"pyadapt ...)")
            _usage_error(f"unrecognized arguments: {arg}{hint}")
        _, dest, metavar, _ = opt
        if metavar is None:
            if eq:
                _usage_error(f"argument {flag}: ignored explicit argument {value!r}")
            setattr(opts, dest, True)
        else:
            if not eq:
                if i + 1 >= len(argv) or (argv[i + 1].startswith("-") and argv[i + 1] != "-"):
                    _usage_error(f"argument {flag}: expected one argument ({metavar})")
                i += 1
                value = argv[i]
            if dest in _REPEATABLE:
                setattr(opts, dest, (getattr(opts, dest) or []) + [value])
            else:
                setattr(opts, dest, value)
            last_value = (flag, metavar, value)
        i += 1
    return _checked(opts, last_value, False), None, None, []


def _checked(opts, last_value, have_program):
    """The options' values converted, and the combinations that make no sense refused."""
    if opts.version:
        return opts
    if not have_program and last_value is not None:
        flag, metavar, value = last_value
        if not opts.inspect:
            # --report prog.py: the program was taken as the option's value.
            _usage_error(f"argument {flag}: {value!r} was taken as {metavar} and no program "
                         f"follows it (write: {flag} {metavar} program ...)")
    if opts.warmup is not None:
        opts.warmup = _warmup(opts.warmup)
        if opts.generic and opts.warmup != "never":
            _usage_error("--generic and --warmup contradict each other: generic mode never "
                         "specializes (--warmup never is generic mode)")
    if opts.compile_after is not None:
        opts.compile_after = _count("--compile-after", opts.compile_after)
    if opts.stats_top is not None:
        opts.stats_top = _count("--stats-top", opts.stats_top)
        opts.stats = True
    if opts.report_only is not None and opts.report is None:
        _usage_error("argument --report-only: it limits the pages of --report, which is not "
                     "given (write: --report DIR --report-only PATH ...)")
    if opts.report is not None and os.path.exists(opts.report) and not os.path.isdir(opts.report):
        _usage_error(f"argument --report: {opts.report!r} is not a directory")
    return opts


def _count(flag, text):
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        _usage_error(f"argument {flag}: expected a count (0 or more), not {text!r}")
    return value


def _warmup(text):
    if text == "never":
        return text
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= _word.MAX_WARMUP:
        _usage_error(f"argument --warmup: expected a count of executions "
                     f"(0 to {_word.MAX_WARMUP}) or 'never', not {text!r}")
    return value


# ---- the program, found and compiled natively ----

def _absolute(path):
    # What python makes of the script path for __file__: joined to the cwd, not normalized.
    return path if os.path.isabs(path) else os.path.join(os.getcwd(), path)


def _set_path0(entry):
    """Put the program's entry first on sys.path, in place of the cwd that ``-m pyadapt`` put there."""
    cwd = os.getcwd()
    if sys.path and sys.path[0] == cwd:
        sys.path[0] = entry
        # finding pyadapt made an importer for the cwd; python would not have scanned it yet
        sys.path_importer_cache.pop(cwd, None)
    else:
        sys.path.insert(0, entry)


def _safe_path():
    return getattr(sys.flags, "safe_path", False)  # -P, -I, PYTHONSAFEPATH (3.11+)


def _main_importer(filename):
    """What python asks of a script path before running it (PyImport_GetImporter): an
    importer for it -- a zip file or a directory -- means it runs the ``__main__`` module
    found there.  Cached in sys.path_importer_cache, as python does."""
    cache = sys.path_importer_cache
    if filename in cache:
        return cache[filename]
    cache[filename] = None   # what python leaves there for a plain script
    for hook in sys.path_hooks:
        try:
            importer = hook(filename)
        except ImportError:
            continue
        cache[filename] = importer
        return importer
    return None


def _open_error(filename, exc):
    prog = (getattr(sys, "orig_argv", None) or [sys.executable])[0]
    print(f"{prog}: can't open file {filename!r}: [Errno {exc.errno}] {exc.strerror}",
          file=sys.stderr)
    raise SystemExit(2)


def _compile_script(path):
    """Code and __main__ attributes of ``python path``; sets sys.path[0] as python does."""
    import importlib.machinery
    import importlib.util

    filename = _absolute(path)
    if not _safe_path():
        _set_path0(os.path.dirname(os.path.realpath(filename)))
    try:
        with io.open_code(filename) as f:
            data = f.read()
    except OSError as exc:
        _open_error(filename, exc)
    if data[:4] == importlib.util.MAGIC_NUMBER:  # a compiled .pyc file, as python accepts
        import marshal

        code = marshal.loads(data[16:])
        loader = importlib.machinery.SourcelessFileLoader("__main__", filename)
    else:
        code = compile(data, filename, "exec", dont_inherit=True)
        loader = importlib.machinery.SourceFileLoader("__main__", filename)
    return code, {"__file__": filename, "__cached__": None, "__loader__": loader}


def _compile_string(source, filename, path0=""):
    if path0 is not None and not _safe_path():
        _set_path0(path0)
    return compile(source, filename, "exec", dont_inherit=True)


def _new_main(attrs=None):
    """A ``__main__`` module with the attributes python gives its own before running a
    program, in place of the launcher's in sys.modules."""
    import builtins
    import importlib.machinery

    main = type(sys)("__main__")
    main.__dict__.update(__annotations__={}, __builtins__=builtins,
                         __loader__=importlib.machinery.BuiltinImporter)
    if attrs:
        main.__dict__.update(attrs)
    sys.modules["__main__"] = main
    return main


# ---- the end of the program ----

def _show_native_traceback():
    """Make the uncaught exception now propagating print as it would natively.

    Python itself prints it (through sys.excepthook) and sets the exit status (1, or death by
    SIGINT for KeyboardInterrupt) once it reaches the top; on the way it passes the launcher's
    frames, which a native run does not have.  The hook installed here takes them out of the
    traceback before the hook in place (python's or the program's) prints it.
    """
    previous = sys.excepthook

    def excepthook(exc_type, exc, tb):
        tb = _native_traceback(tb)
        if exc is not None:
            exc = exc.with_traceback(tb)  # the default hook prints exc.__traceback__
        previous(exc_type, exc, tb)

    sys.excepthook = excepthook


def _native_traceback(tb):
    """The traceback without the launcher's frames and what came before them (runpy's for
    ``-m pyadapt``, the console script's): what is left starts where the program's own
    stack starts, as python itself would print it."""
    entries = []
    while tb is not None:
        entries.append(tb)
        tb = tb.tb_next
    own = [i for i, entry in enumerate(entries) if entry.tb_frame.f_globals is globals()]
    if not own:
        return entries[0] if entries else None
    kept = entries[own[-1] + 1:]
    for entry, after in zip(kept, kept[1:] + [None]):
        entry.tb_next = after
    return kept[0] if kept else None


_kept_for_report = []

# What runs, for --stats-json: set by main once the command line is parsed.
_program = {"kind": None, "target": None, "args": []}
# For the report: the script's absolute path, the directory the program started in, and the
# text of programs that have no file (-c, standard input), by their code's filename.
_report_context = {"path": None, "cwd": None}
_report_sources = {}


def _keep_main_code_for_report():
    """Keep the module code of a program run through runpy alive for the report and the
    statistics at exit (otherwise it is freed when runpy's exec returns and its page and
    sites would miss the module level): runpy._run_code's exec is seen through the "exec"
    audit event."""
    import runpy

    run_code = runpy._run_code.__code__

    def hook(event, args):
        if not _kept_for_report and event == "exec" and sys._getframe(1).f_code is run_code:
            _kept_for_report.append(args[0])

    sys.addaudithook(hook)


def _outputs(opts):
    """Whether anything is written at exit (--stats, --stats-json, --report)."""
    return bool(opts.stats or opts.stats_json or opts.report)


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
    report_only = [os.path.abspath(p) for p in opts.report_only] if opts.report_only else None
    _report_context["cwd"] = os.getcwd()

    def write_outputs():
        if os.getpid() != pid:
            return
        from pyadapt import _report, _sites

        err = sys.stderr if sys.stderr is not None else sys.__stderr__
        stats = pyadapt.stats()
        top = 10 if opts.stats_top is None else opts.stats_top
        sites = _sites.site_records() if stats_json or (opts.stats and top) else None
        if stats_json:
            import json

            try:
                with open(stats_json, "w", encoding="utf-8") as f:
                    json.dump(_sites.document(dict(_program), totals=stats, sites=sites), f,
                              indent=1)
                    f.write("\n")
            except OSError as exc:
                _warn(err, f"cannot write --stats-json {stats_json}: {exc}")
        if report_dir:
            try:
                index = _report.report(report_dir, program=dict(_program, **_report_context),
                                       only=report_only, sources=_report_sources)
            except Exception as exc:  # never lose the other outputs, nor the exit status
                _warn(err, f"cannot write --report {report_dir}: {type(exc).__name__}: {exc}")
            else:
                _warn(err, f"report written to {index}")
        if opts.stats and err is not None:
            try:
                err.flush()
                err.write("\n" + _report.format_stats(stats))
                if top:
                    err.write("\n" + _sites.format_top_sites(sites, top))
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


# ---- the interactive console ----

def _stdin_is_a_terminal():
    try:
        return os.isatty(0)
    except OSError:
        return False


def _banner():
    if not sys.flags.quiet:
        print(f"Python {sys.version} on {sys.platform}\n"
              'Type "help", "copyright", "credits" or "license" for more information.\n'
              f"pyadapt {pyadapt.__version__}: every statement runs under pyadapt "
              f"({_mode()})", file=sys.stderr, flush=True)


def _mode():
    config = pyadapt.config()
    return "adaptive, warmup %d" % config["warmup"] if config["specialize"] else "generic"


def _startup_code():
    """PYTHONSTARTUP's code, compiled (natively) to run in __main__ before the first prompt,
    as python's console does; None if there is none."""
    if sys.flags.ignore_environment:
        return None
    startup = os.environ.get("PYTHONSTARTUP")
    if not startup:
        return None
    try:
        with open(startup, "rb") as f:
            return compile(f.read(), startup, "exec", dont_inherit=True)
    except OSError as exc:
        print(f"Could not open PYTHONSTARTUP\n{type(exc).__name__}: {exc}", file=sys.stderr)
    except SyntaxError as exc:
        _print_exception(exc)
    return None


def _print_exception(exc):
    """Print an exception caught by the launcher as python prints an uncaught one."""
    exc = exc.with_traceback(_native_traceback(exc.__traceback__))
    sys.excepthook(type(exc), exc, exc.__traceback__)


def _interactive_hook():
    """sys.__interactivehook__ (site's readline set-up), called natively as python does."""
    hook = getattr(sys, "__interactivehook__", None)
    if hook is None:
        return
    try:
        hook()
    except Exception as exc:
        print("Failed calling sys.__interactivehook__", file=sys.stderr)
        sys.excepthook(type(exc), exc, exc.__traceback__)


def _interactive_loop():
    """Python's own read-eval-print loop (prompts sys.ps1 and sys.ps2, line editing, errors
    printed and the loop going on, SystemExit ending the process), on the C stdin."""
    import ctypes

    loop = ctypes.pythonapi.PyRun_InteractiveLoopFlags
    loop.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    loop.restype = ctypes.c_int
    stdin = ctypes.c_void_p.in_dll(ctypes.pythonapi, "stdin")
    sys.stdout.flush()
    sys.stderr.flush()
    return loop, stdin


# ---- main ----

def _children(opts):
    """--no-children, --warmup, --compile-after and --generic: for this process now, and for
    its children through the environment variables pyadapt reads at import."""
    if opts.no_children:
        os.environ.pop("PYADAPT", None)
    else:
        os.environ["PYADAPT"] = "1"
    settings = {}
    if opts.warmup is not None:
        settings["warmup"] = opts.warmup
        os.environ["PYADAPT_WARMUP"] = str(opts.warmup)
    if opts.compile_after is not None:
        settings["compile_after"] = opts.compile_after
        os.environ["PYADAPT_COMPILE_AFTER"] = str(opts.compile_after)
    if opts.generic:
        settings["specialize"] = False
        os.environ["PYADAPT_SPECIALIZE"] = "0"
    if settings:
        pyadapt.configure(**settings)


def _enable():
    if not pyadapt.is_enabled():
        pyadapt.enable()


def _console_compiles_everything(opts):
    """The console runs every statement under pyadapt (its banner says so): each statement is
    a new code object run once, which compile_after would leave to CPython's loop as cold.
    For this process only, and not over an explicit --compile-after.  Called with pyadapt
    off (its own frame would otherwise be the program's)."""
    if opts.compile_after is None:
        pyadapt._lib.pa_config.compile_after = 0


def main(argv=None):
    if pyadapt.is_enabled():
        # PYADAPT=1 in the environment started pyadapt already: the launcher's own work is
        # still done natively from here on (_enable switches it back on for the program).
        pyadapt.disable()
    opts, kind, target, args = _parse(sys.argv[1:] if argv is None else argv)
    if opts.version:
        print(f"pyadapt {pyadapt.__version__}")
        return
    _children(opts)
    # what each specialization attempt met, per site, is kept only where an output reads it
    pyadapt._lib.pa_config.record_sites = 1 if _outputs(opts) else 0
    if _outputs(opts):
        # what came at the misses of specialized sites, for the site records these show
        pyadapt._lib.pa_config.record_misses = 1
        _at_exit_outputs(opts)
    if kind is None or target == "-" and kind == "script":
        _program.update(kind="stdin", target="-", args=list(args))   # or "interactive"
    else:
        _program.update(kind={"script": "script", "-m": "module", "-c": "command"}[kind],
                        target=target, args=list(args))

    # python -i (or PYTHONINSPECT) before -m pyadapt: python's own console follows the
    # launcher, already under pyadapt.
    python_console_follows = bool(sys.flags.inspect) and (bool(sys.flags.interactive)
                                                          or _stdin_is_a_terminal())
    if kind is None or target == "-" and kind == "script":
        return _run_stdin(opts, "" if kind is None else "-", args, python_console_follows)

    if kind == "script":
        filename = _absolute(target)
        _report_context["path"] = filename
        sys.argv[:] = [target, *args]
        if _main_importer(filename) is not None:
            # A directory or zip file with __main__.py: it goes first on sys.path (even with
            # -P) and its __main__ module runs through runpy, as with ``python dir``.
            _set_path0(filename)
            return _run_module(opts, "__main__", False, python_console_follows)
        code, attrs = _compile_or_exit(_compile_script, target)
    elif kind == "-m":
        sys.argv[:] = ["-m", *args]   # runpy puts the module's path in argv[0] once found
        return _run_module(opts, target, True, python_console_follows)
    else:
        sys.argv[:] = ["-c", *args]
        code = _compile_or_exit(_compile_string, target, "<string>")
        _report_sources["<string>"] = target
        _register_command_source(target)
        attrs = None
    main_module = _new_main(attrs)
    if _outputs(opts):
        # Keep the program's top-level code (and so its unit) alive for the report and the
        # statistics at exit; otherwise it is freed when exec returns and they would miss
        # the module level.
        _kept_for_report.append(code)
    _run_toplevel(opts, exec, (code, main_module.__dict__), python_console_follows)


def _register_command_source(source):
    """python 3.13 puts the source of -c in linecache under "<string>" before running it
    (the command and a newline, as its parser read it), so that tracebacks and warnings show
    its lines; python -m pyadapt -c does the same there."""
    if sys.version_info >= (3, 13):
        import linecache

        source += "\n"
        linecache.cache["<string>"] = (len(source), None,
                                       [line + "\n" for line in source.splitlines()], "<string>")


def _compile_or_exit(compile_function, *args):
    try:
        return compile_function(*args)
    except SystemExit:
        raise
    except BaseException:   # a SyntaxError: python prints it without a traceback
        _show_native_traceback()
        raise


def _run_module(opts, name, alter_argv, python_console_follows):
    import runpy

    _new_main()
    if _outputs(opts):
        _keep_main_code_for_report()
    _run_toplevel(opts, runpy._run_module_as_main, (name, alter_argv), python_console_follows)


def _run_toplevel(opts, func, args, python_console_follows):
    """Enable pyadapt and call the program's top level with no launcher frame below it."""
    if func is exec:
        # A script's, -c's or stdin's own top level is what pyadapt was asked to run: it is
        # compiled now, not left to CPython's loop as cold code (it runs once by nature).
        _core.compile(args[0])
    _enable()
    try:
        _core._call_toplevel(func, *args)
    except BaseException as exc:
        if not opts.inspect or python_console_follows:
            if python_console_follows and opts.compile_after is None:
                pyadapt._lib.pa_config.compile_after = 0     # as _console_compiles_everything
            _show_native_traceback()
            raise
        # -i: the error is printed (even SystemExit's), then the console starts; the launcher
        # works natively in between (disable is a C builtin: no frame of its own).
        pyadapt.disable()
        _print_exception(exc)
    if python_console_follows and opts.compile_after is None:
        # python's console follows, under pyadapt: as _console_compiles_everything, inline
        # (pyadapt is on, and a call would be a frame of the program's)
        pyadapt._lib.pa_config.compile_after = 0
    if opts.inspect and not python_console_follows:
        pyadapt.disable()
        _console(opts)


def _run_stdin(opts, argv0, args, python_console_follows):
    """No program, or ``-``: the interactive console when stdin is a terminal (or with
    -i), otherwise the program read from stdin, as python does."""
    sys.argv[:] = [argv0, *args]
    if not _safe_path():
        _set_path0("")
    main_module = _new_main()
    interactive = opts.inspect or bool(sys.flags.interactive) or _stdin_is_a_terminal()
    if interactive:
        _program.update(kind="interactive", target=None)
        _console_compiles_everything(opts)
        # Everything the console needs is set up natively; once pyadapt is on, this frame
        # (started natively, so still run by CPython's loop) calls only C builtins.
        _banner()
        startup = _startup_code()
        if not python_console_follows:
            _interactive_hook()
            loop, stdin = _interactive_loop()
        _enable()
        if startup is not None:
            try:
                _core._call_toplevel(exec, startup, main_module.__dict__)
            except SystemExit:
                raise
            except BaseException as exc:
                pyadapt.disable()
                _print_exception(exc)
                pyadapt.enable()
        if not python_console_follows:   # otherwise python's console, after the launcher
            _core._call_toplevel(loop, stdin, b"<stdin>", None)
        return
    source = sys.stdin.buffer.read()
    code = _compile_or_exit(lambda: compile(source, "<stdin>", "exec", dont_inherit=True))
    _report_sources["<stdin>"] = source.decode("utf-8", "replace")
    main_module.__dict__.update(__file__="<stdin>", __cached__=None)
    if _outputs(opts):
        _kept_for_report.append(code)
    _run_toplevel(opts, exec, (code, main_module.__dict__), python_console_follows)


def _console(opts):
    _console_compiles_everything(opts)
    loop, stdin = _interactive_loop()
    _enable()
    _core._call_toplevel(loop, stdin, b"<stdin>", None)


def command():
    """The ``pyadapt`` command: ``python -m pyadapt`` with sys.path as ``-m`` leaves it (the
    cwd first, not the directory of the command's script)."""
    if not _safe_path() and sys.path and sys.argv and sys.argv[0]:
        here = os.path.dirname(os.path.realpath(sys.argv[0]))
        if sys.path[0] == here:
            sys.path[0] = os.getcwd()
    return main()


if __name__ == "__main__":
    main()
